import CGpiod
import Glibc

/// The HD44780's 4-bit interface wired straight to GPIO lines (RS, E, D4–D7; R/W tied to ground),
/// driven through libgpiod's v1 line API.
///
/// This is the only file of the LCD that uses libgpiod; it requests its lines as outputs itself, apart
/// from the GPIO input layer (`Sources/Hardware/GPIO`). Every nibble sets RS and the data lines, waits
/// the setup time, pulses E for at least 1 µs and then waits the instruction's execution time.
/// Used from one thread at a time (the display's writer thread).
public final class GpiodLCDBus: LCDBus {
    /// The GPIO line offsets of one wiring.
    public struct Pins: Hashable, Sendable {
        public var registerSelect: Int
        public var enable: Int
        /// D4, D5, D6, D7 in that order.
        public var data: [Int]
        /// A line switching the backlight transistor, if wired.
        public var backlight: Int?

        public init(registerSelect: Int, enable: Int, data: [Int], backlight: Int? = nil) {
            self.registerSelect = registerSelect
            self.enable = enable
            self.data = data
            self.backlight = backlight
        }
    }

    private var chip: OpaquePointer?
    private let registerSelect: OpaquePointer
    private let enable: OpaquePointer
    private let data: [OpaquePointer]
    private let backlight: OpaquePointer?
    public private(set) var statistics = LCDBusStatistics()

    /// Opens `chipPath` (e.g. `/dev/gpiochip0`) and requests the lines of `pins` as outputs, low.
    ///
    /// - Throws: `GpiodLCDBusError` naming the failing libgpiod call (`gpiod_chip_open`,
    ///   `gpiod_chip_get_line`, `gpiod_line_request_output`) and errno, e.g. `EBUSY` when another
    ///   program holds a line.
    public init(chipPath: String, pins: Pins, consumer: String = "wavedial-lcd") throws {
        guard pins.data.count == 4 else { throw GpiodLCDBusError(function: "pins", code: EINVAL) }
        guard let chip = gpiod_chip_open(chipPath) else {
            throw GpiodLCDBusError(function: "gpiod_chip_open(\(chipPath))", code: errno)
        }
        var requested: [OpaquePointer] = []
        func output(_ offset: Int) throws -> OpaquePointer {
            guard offset >= 0, let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
                throw GpiodLCDBusError(function: "gpiod_chip_get_line(\(offset))", code: errno)
            }
            guard gpiod_line_request_output(line, consumer, 0) == 0 else {
                throw GpiodLCDBusError(function: "gpiod_line_request_output(\(offset))", code: errno)
            }
            requested.append(line)
            return line
        }
        do {
            registerSelect = try output(pins.registerSelect)
            enable = try output(pins.enable)
            data = try pins.data.map(output)
            backlight = try pins.backlight.map(output)
        } catch {
            requested.forEach { gpiod_line_release($0) }
            gpiod_chip_close(chip)
            throw error
        }
        self.chip = chip
        if let backlight { gpiod_line_set_value(backlight, 1) }
    }

    public func writeNibble(_ nibble: UInt8, register: HD44780Register, executionMicroseconds: Int) throws {
        try set(registerSelect, register == .data)
        for (index, line) in data.enumerated() {
            try set(line, nibble & (1 << index) != 0)
        }
        sleep(microseconds: 1)  // address and data setup before E rises
        try set(enable, true)
        sleep(microseconds: 1)  // E high for at least 450 ns
        try set(enable, false)
        statistics.bytes += 1
        sleep(microseconds: max(1, executionMicroseconds))
        statistics.waitMicroseconds += executionMicroseconds
    }

    public func pause(microseconds: Int) throws {
        sleep(microseconds: microseconds)
        statistics.waitMicroseconds += microseconds
    }

    public func setBacklight(_ on: Bool) throws {
        if let backlight { try set(backlight, on) }
    }

    public func flush() throws {}

    /// Releases the lines and closes the chip (wraps `gpiod_chip_close`, which releases requested lines).
    public func close() {
        if let chip {
            gpiod_chip_close(chip)
            self.chip = nil
        }
    }

    deinit { close() }

    private func set(_ line: OpaquePointer, _ level: Bool) throws {
        guard chip != nil else { throw GpiodLCDBusError(function: "gpiod_line_set_value", code: EBADF) }
        guard gpiod_line_set_value(line, level ? 1 : 0) == 0 else {
            throw GpiodLCDBusError(function: "gpiod_line_set_value", code: errno)
        }
    }

    private func sleep(microseconds: Int) {
        var request = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}

/// A libgpiod call of the LCD's GPIO wiring failed.
public struct GpiodLCDBusError: Error, Equatable, CustomStringConvertible {
    /// The failing call and its argument.
    public let function: String
    /// The errno value.
    public let code: Int32

    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    public var description: String { "LCD GPIO wiring: \(function) failed: \(String(cString: strerror(code)))" }
}
