import CGpiod
#if canImport(Glibc)
import Glibc
#endif

/// An open GPIO chip and the lines requested from it through libgpiod 1.6 (`gpiod_chip_*`, `gpiod_line_*`).
///
/// Owns the chip handle: `close()` (or deinit) releases every line and closes it. Requested lines
/// are `GpiodChip.Line` values that do not own anything. Used by one thread at a time.
final class GpiodChip {
    /// A line of this chip (`struct gpiod_line *`); valid until the chip is closed.
    struct Line {
        fileprivate let handle: OpaquePointer
        let offset: UInt32
    }

    /// The consumer name other tools (`gpioinfo`) show for our lines.
    static let consumer = "wavedial"

    private var handle: OpaquePointer?
    /// The name the kernel gives the chip (`gpiochip0`).
    let name: String

    /// Opens a chip by name, `/dev` path, label or number. Wraps `gpiod_chip_open_lookup`.
    /// Throws `GPIOError` `.chipNotFound` or `.permissionDenied`.
    init(lookup description: String) throws {
        guard let handle = gpiod_chip_open_lookup(description) else {
            let error = errno
            switch error {
            case ENOENT, ENODEV, ENOTTY:
                throw GPIOError(.chipNotFound, "no GPIO chip \"\(description)\" (by name, /dev path or label; see gpiodetect)",
                                errno: error)
            case EACCES, EPERM:
                throw GPIOError(.permissionDenied, "no permission to open GPIO chip \"\(description)\" (is the user in the gpio group?)",
                                errno: error)
            default:
                throw GPIOError(.system, "cannot open GPIO chip \"\(description)\": \(String(cString: strerror(error)))",
                                errno: error)
            }
        }
        self.handle = handle
        self.name = String(cString: gpiod_chip_name(handle))
    }

    deinit { close() }

    /// Finds a line by offset or by name. Wraps `gpiod_chip_get_line` / `gpiod_chip_find_line`. Throws `.lineNotFound`.
    func line(_ id: GPIOLineID) throws -> Line {
        let chip = try open()
        switch id {
        case .offset(let offset):
            guard let line = gpiod_chip_get_line(chip, offset) else {
                throw GPIOError(.lineNotFound, "\(name) has no line \(offset) (it has \(gpiod_chip_num_lines(chip)))",
                                errno: errno)
            }
            return Line(handle: line, offset: offset)
        case .name(let lineName):
            guard let line = gpiod_chip_find_line(chip, lineName) else {
                throw GPIOError(.lineNotFound, "\(name) has no line named \"\(lineName)\"", errno: errno)
            }
            return Line(handle: line, offset: gpiod_line_offset(line))
        }
    }

    /// Requests `line` as an input reporting both edges. Wraps `gpiod_line_request_both_edges_events_flags`.
    /// Throws `.lineBusy` when another process holds it (EBUSY), `.system` otherwise.
    func requestBothEdges(_ line: Line, bias: GPIOBias, activeLow: Bool, role: String) throws {
        var flags: Int32 = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        switch bias {
        case .pullUp: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .asIs: break
        }
        guard gpiod_line_request_both_edges_events_flags(line.handle, Self.consumer, flags) == 0 else {
            let error = errno
            if error == EBUSY {
                _ = gpiod_line_update(line.handle)
                let holder = gpiod_line_consumer(line.handle).map { " (\"\(String(cString: $0))\")" } ?? ""
                throw GPIOError(.lineBusy, "line \(line.offset) (\(role)) of \(name) is held by another process\(holder), is wavediald running?",
                                errno: error)
            }
            throw GPIOError(.system, "cannot request line \(line.offset) (\(role)) of \(name): \(String(cString: strerror(error)))",
                            errno: error)
        }
    }

    /// The line's logical level. Wraps `gpiod_line_get_value`. Throws `.system`.
    func value(_ line: Line) throws -> Bool {
        let value = gpiod_line_get_value(line.handle)
        guard value >= 0 else {
            let error = errno
            throw GPIOError(.system, "cannot read line \(line.offset) of \(name): \(String(cString: strerror(error)))",
                            errno: error)
        }
        return value == 1
    }

    /// The file descriptor that becomes readable when `line` has events. Wraps `gpiod_line_event_get_fd`.
    func eventDescriptor(_ line: Line) -> Int32 {
        gpiod_line_event_get_fd(line.handle)
    }

    /// Reads the pending events of `line` (call when its descriptor is readable): direction and
    /// `CLOCK_MONOTONIC` timestamp each, oldest first. Wraps `gpiod_line_event_read_multiple`. Throws `.system`.
    func readEvents(_ line: Line) throws -> [(direction: GPIOEdge.Direction, timestamp: UInt64)] {
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
        let count = gpiod_line_event_read_multiple(line.handle, &buffer, UInt32(buffer.count))
        guard count >= 0 else {
            let error = errno
            throw GPIOError(.system, "cannot read events of line \(line.offset) of \(name): \(String(cString: strerror(error)))",
                            errno: error)
        }
        return buffer.prefix(Int(count)).map { event in
            (Int(event.event_type) == GPIOD_LINE_EVENT_RISING_EDGE ? .rising : .falling,
             UInt64(event.ts.tv_sec) * 1_000_000_000 + UInt64(event.ts.tv_nsec))
        }
    }

    /// Releases every requested line and closes the chip. Wraps `gpiod_chip_close`.
    func close() {
        if let handle {
            gpiod_chip_close(handle)
            self.handle = nil
        }
    }

    private func open() throws -> OpaquePointer {
        guard let handle else { throw GPIOError(.system, "GPIO chip \(name) is closed") }
        return handle
    }
}
