import CGpiod
#if canImport(Glibc)
import Glibc
#endif
import PrintableText

/// An open GPIO chip and the lines requested from it: the one wrapper over libgpiod, for the input
/// lines (`GpiodBackend`) and the LCD's output lines (`GpiodLCDBus`).
///
/// Builds against libgpiod 1.6 (Debian 12) or 2.x (Debian 13): `CGpiod`'s shim picks the API the
/// installed `<gpiod.h>` has, and this file calls only the shim's `wd_gpio_*` functions.
///
/// Owns the chip and every request made through it, as libgpiod 2's line requests are owned: `close()`
/// (or deinit) releases the requests, then closes the chip. A `Request` is a value that owns nothing and
/// is valid until the chip is closed. Used by one thread at a time.
final class GpiodChip {
    /// A line requested from this chip.
    struct Request {
        fileprivate let handle: OpaquePointer
        let offset: UInt32
        /// What the line is for (`encoder.a`, `lcd.e`), named in errors.
        let role: String
    }

    /// The library the shim was built against: "1.6.3" or "2.2.1".
    static var library: String { String(cString: wd_gpio_library()) }

    private var handle: OpaquePointer?
    private var requests: [OpaquePointer] = []
    /// The consumer name other tools (`gpioinfo`) show for our lines.
    let consumer: String
    /// The name the kernel gives the chip (`gpiochip0`).
    let name: String
    /// The chip's label (`pinctrl-bcm2711`, `gpio-sim.0-node0`).
    let label: String
    /// How many lines the chip has.
    let lineCount: UInt32

    /// Opens a chip by number (`0`), name (`gpiochip0`), `/dev` path or label, as `gpiod_chip_open_lookup`
    /// of libgpiod 1.x did (libgpiod 2 opens paths only). Throws `GPIOError` `.chipNotFound` or `.permissionDenied`.
    init(lookup description: String, consumer: String = "wavedial") throws {
        self.consumer = consumer
        let handle = try Self.open(lookup: description)
        var name = [CChar](repeating: 0, count: 64)
        var label = [CChar](repeating: 0, count: 64)
        var lines: UInt32 = 0
        guard wd_gpio_chip_describe(handle, &name, name.count, &label, label.count, &lines) == 0 else {
            let error = errno
            wd_gpio_chip_close(handle)
            throw GPIOError(.system, "cannot read GPIO chip \"\(description)\": \(String(cString: strerror(error)))", errno: error)
        }
        self.handle = handle
        self.name = String(nulTerminated: name)
        self.label = String(nulTerminated: label)
        self.lineCount = lines
    }

    deinit { close() }

    /// The offset of a line given by offset or by name. Throws `.lineNotFound`.
    func offset(of id: GPIOLineID) throws -> UInt32 {
        let chip = try open()
        switch id {
        case .offset(let offset):
            guard offset < lineCount else {
                throw GPIOError(.lineNotFound, "\(name) has no line \(offset) (it has \(lineCount))", errno: EINVAL)
            }
            return offset
        case .name(let lineName):
            let offset = wd_gpio_chip_find_line(chip, lineName)
            guard offset >= 0 else {
                throw GPIOError(.lineNotFound, "\(name) has no line named \"\(lineName)\"", errno: errno)
            }
            return UInt32(offset)
        }
    }

    /// Requests line `offset` as an input reporting both edges, with the kernel's `CLOCK_MONOTONIC` timestamps.
    /// Throws `.lineBusy` when another process holds it (EBUSY), `.system` otherwise.
    func requestInput(_ offset: UInt32, bias: GPIOBias, activeLow: Bool, role: String) throws -> Request {
        let chip = try open()
        let request = wd_gpio_request_input(chip, offset, consumer, Self.shimBias(bias), activeLow)
        return try record(request, offset: offset, role: role)
    }

    /// Requests line `offset` as an output driven to `level`. Throws `.lineBusy` (EBUSY) or `.system`.
    func requestOutput(_ offset: UInt32, level: Bool, role: String) throws -> Request {
        let chip = try open()
        return try record(wd_gpio_request_output(chip, offset, consumer, level), offset: offset, role: role)
    }

    /// The line's logical level. Throws `.system`.
    func value(_ request: Request) throws -> Bool {
        let value = wd_gpio_get_value(request.handle)
        guard value >= 0 else { throw failure("read", request) }
        return value == 1
    }

    /// Drives an output line. Throws `.system`.
    func setValue(_ request: Request, _ level: Bool) throws {
        guard handle != nil else { throw GPIOError(.system, "GPIO chip \(name) is closed", errno: EBADF) }
        guard wd_gpio_set_value(request.handle, level) == 0 else { throw failure("set", request) }
    }

    /// The file descriptor that becomes readable when an input line has edges.
    func eventDescriptor(_ request: Request) -> Int32 {
        wd_gpio_request_fd(request.handle)
    }

    /// Reads the pending edges of an input line (call when its descriptor is readable): direction and
    /// `CLOCK_MONOTONIC` timestamp each, oldest first. Throws `.system` (e.g. the chip was removed).
    func readEvents(_ request: Request) throws -> [(direction: GPIOEdge.Direction, timestamp: UInt64)] {
        var buffer = [wd_gpio_edge](repeating: wd_gpio_edge(), count: 16)
        let count = wd_gpio_read_edges(request.handle, &buffer, UInt32(buffer.count))
        guard count >= 0 else { throw failure("read events of", request) }
        return buffer.prefix(Int(count)).map { ($0.rising ? .rising : .falling, $0.timestamp_ns) }
    }

    /// Releases every request, then closes the chip.
    func close() {
        requests.forEach { wd_gpio_request_release($0) }
        requests = []
        if let handle {
            wd_gpio_chip_close(handle)
            self.handle = nil
        }
    }

    private func open() throws -> OpaquePointer {
        guard let handle else { throw GPIOError(.system, "GPIO chip \(name) is closed", errno: EBADF) }
        return handle
    }

    private func record(_ handle: OpaquePointer?, offset: UInt32, role: String) throws -> Request {
        guard let handle else {
            let error = errno
            if error == EBUSY {
                throw GPIOError(.lineBusy, "line \(offset) (\(role)) of \(name) is held by another process\(holder(of: offset)), is wavediald running?",
                                errno: error)
            }
            throw GPIOError(.system, "cannot request line \(offset) (\(role)) of \(name): \(String(cString: strerror(error)))",
                            errno: error)
        }
        requests.append(handle)
        return Request(handle: handle, offset: offset, role: role)
    }

    /// ` ("consumer")` for a line another process holds, else nothing.
    private func holder(of offset: UInt32) -> String {
        guard let handle else { return "" }
        var consumer = [CChar](repeating: 0, count: 64)
        guard wd_gpio_line_consumer(handle, offset, &consumer, consumer.count) == 1 else { return "" }
        return " (\"\(String(nulTerminated: consumer))\")"
    }

    private func failure(_ verb: String, _ request: Request) -> GPIOError {
        let error = errno
        return GPIOError(.system, "cannot \(verb) line \(request.offset) (\(request.role)) of \(name): \(String(cString: strerror(error)))",
                         errno: error)
    }

    private static func shimBias(_ bias: GPIOBias) -> wd_gpio_bias {
        switch bias {
        case .pullUp: return WD_GPIO_BIAS_PULL_UP
        case .pullDown: return WD_GPIO_BIAS_PULL_DOWN
        case .disabled: return WD_GPIO_BIAS_DISABLED
        case .asIs: return WD_GPIO_BIAS_AS_IS
        }
    }

    /// Opens the chip `description` names: a number or kernel name is a `/dev/gpiochipN` path, anything with
    /// a slash a path, and anything else a label, looked for on every chip in `/dev`.
    private static func open(lookup description: String) throws -> OpaquePointer {
        let path: String?
        if !description.isEmpty, description.allSatisfy(\.isASCIIDigit) {
            path = "/dev/gpiochip" + description
        } else if description.contains("/") {
            path = description
        } else if description.hasPrefix("gpiochip"), access("/dev/" + description, F_OK) == 0 {
            path = "/dev/" + description
        } else {
            path = nil
        }
        if let path {
            guard let chip = wd_gpio_chip_open(path) else { throw openError(description, errno: errno) }
            return chip
        }
        var refused: Int32?
        for candidate in chipPaths() {
            guard let chip = wd_gpio_chip_open(candidate) else {
                if errno == EACCES || errno == EPERM { refused = errno }
                continue
            }
            var name = [CChar](repeating: 0, count: 64)
            var label = [CChar](repeating: 0, count: 64)
            var lines: UInt32 = 0
            if wd_gpio_chip_describe(chip, &name, name.count, &label, label.count, &lines) == 0,
               String(nulTerminated: label) == description {
                return chip
            }
            wd_gpio_chip_close(chip)
        }
        throw openError(description, errno: refused ?? ENOENT)
    }

    /// `/dev/gpiochip*`, in number order.
    private static func chipPaths() -> [String] {
        guard let directory = opendir("/dev") else { return [] }
        defer { closedir(directory) }
        var numbers: [Int] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("gpiochip"), let number = Int(name.dropFirst("gpiochip".count)) { numbers.append(number) }
        }
        return numbers.sorted().map { "/dev/gpiochip\($0)" }
    }

    private static func openError(_ description: String, errno error: Int32) -> GPIOError {
        switch error {
        case ENOENT, ENODEV, ENOTTY, EINVAL:
            return GPIOError(.chipNotFound, "no GPIO chip \"\(description)\" (by name, /dev path or label; see gpiodetect)",
                             errno: error)
        case EACCES, EPERM:
            return GPIOError(.permissionDenied, "no permission to open GPIO chip \"\(description)\" (is the user in the gpio group?)",
                             errno: error)
        default:
            return GPIOError(.system, "cannot open GPIO chip \"\(description)\": \(String(cString: strerror(error)))",
                             errno: error)
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
