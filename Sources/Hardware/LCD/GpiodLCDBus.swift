import Glibc
import Threads

/// The HD44780's 4-bit interface wired straight to GPIO lines (RS, E, D4–D7; R/W tied to ground),
/// requested as outputs through `GpiodChip`, the GPIO wrapper the input lines use too.
///
/// Every nibble sets RS and the data lines, waits
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

    private var chip: GpiodChip?
    private let registerSelect: GpiodChip.Request
    private let enable: GpiodChip.Request
    private let data: [GpiodChip.Request]
    private let backlight: GpiodChip.Request?
    public private(set) var statistics = LCDBusStatistics()

    /// Opens `chipPath` (a `/dev` path, or a chip's number, name or label) and requests the lines of
    /// `pins` as outputs, low (the backlight on).
    ///
    /// - Throws: `GpiodLCDBusError` naming the failing step (`gpiod_chip_open(PATH)`, `request line N (ROLE)`)
    ///   and errno, e.g. `EBUSY` when another program holds a line.
    public init(chipPath: String, pins: Pins, consumer: String = "wavedial-lcd") throws {
        guard pins.data.count == 4 else { throw GpiodLCDBusError(function: "pins", code: EINVAL) }
        let chip: GpiodChip
        do {
            chip = try GpiodChip(lookup: chipPath, consumer: consumer)
        } catch let error as GPIOError {
            throw GpiodLCDBusError(function: "gpiod_chip_open(\(chipPath))", code: error.errno ?? EIO)
        }
        func output(_ offset: Int, _ role: String, level: Bool = false) throws -> GpiodChip.Request {
            do {
                guard let line = UInt32(exactly: offset) else { throw GPIOError(.lineNotFound, "no line \(offset)", errno: EINVAL) }
                return try chip.requestOutput(chip.offset(of: .offset(line)), level: level, role: role)
            } catch let error as GPIOError {
                throw GpiodLCDBusError(function: "request line \(offset) (\(role)) as output", code: error.errno ?? EIO)
            }
        }
        // On a throw the chip goes out of scope and releases what was requested.
        registerSelect = try output(pins.registerSelect, "lcd.rs")
        enable = try output(pins.enable, "lcd.e")
        data = try pins.data.enumerated().map { try output($0.element, "lcd.d\($0.offset + 4)") }
        backlight = try pins.backlight.map { try output($0, "lcd.backlight", level: true) }
        self.chip = chip
    }

    public func writeNibble(_ nibble: UInt8, register: HD44780Register, executionMicroseconds: Int) throws {
        try set(registerSelect, register == .data)
        for (index, line) in data.enumerated() {
            try set(line, nibble & (1 << index) != 0)
        }
        Interruptible.sleep(microseconds: 1)  // address and data setup before E rises
        try set(enable, true)
        Interruptible.sleep(microseconds: 1)  // E high for at least 450 ns
        try set(enable, false)
        statistics.bytes += 1
        Interruptible.sleep(microseconds: max(1, executionMicroseconds))
        statistics.waitMicroseconds += executionMicroseconds
    }

    public func pause(microseconds: Int) throws {
        Interruptible.sleep(microseconds: microseconds)
        statistics.waitMicroseconds += microseconds
    }

    public func setBacklight(_ on: Bool) throws {
        if let backlight { try set(backlight, on) }
    }

    public func flush() throws {}

    /// Releases the lines and closes the chip.
    public func close() {
        chip?.close()
        chip = nil
    }

    deinit { close() }

    private func set(_ line: GpiodChip.Request, _ level: Bool) throws {
        guard let chip else { throw GpiodLCDBusError(function: "set line \(line.offset)", code: EBADF) }
        do {
            try chip.setValue(line, level)
        } catch let error as GPIOError {
            throw GpiodLCDBusError(function: "set line \(line.offset) (\(line.role))", code: error.errno ?? EIO)
        }
    }

}

/// A step of the LCD's GPIO wiring failed.
public struct GpiodLCDBusError: Error, Equatable, CustomStringConvertible {
    /// The failing step and its argument.
    public let function: String
    /// The errno value.
    public let code: Int32

    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    public var description: String { "LCD GPIO wiring: \(function) failed: \(String(cString: strerror(code)))" }
}
