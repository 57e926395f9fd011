import CEvdev
import Glibc

/// An input device through evdev (`/dev/input/eventN`): opened non-blocking, found by path or by the name
/// its driver gives it (`EVIOCGNAME`), read as whole `input_event` records.
///
/// Owns its file descriptor: `close()` releases it, `deinit` is the safety net. Read from one thread.
public final class EvdevDevice {
    /// The device node, e.g. `/dev/input/event0`.
    public let path: String
    /// The driver's name for it, e.g. "gpio_ir_recv" (printable ASCII only, at most 255 bytes).
    public let name: String
    private var descriptor: Int32

    /// The longest name read (the kernel's own are far shorter).
    static let nameCapacity = 256
    /// Records read at a time.
    static let recordsPerRead = 64
    /// Event devices looked at when searching by name: `event0` to `event255`.
    static let searchedDevices = 256

    /// Opens `path` read-only and non-blocking (wraps `open(2)` and `ioctl(EVIOCGNAME)`).
    ///
    /// - Throws: `EvdevError`: no such device, no permission (the user must be in group `input`), not an
    ///   input device.
    public init(path: String) throws {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw EvdevError(function: "open", path: path, code: errno) }
        var buffer = [CChar](repeating: 0, count: Self.nameCapacity)
        guard CEvdev_deviceName(fd, &buffer, UInt32(buffer.count)) >= 0 else {
            let code = errno
            Glibc.close(fd)
            throw EvdevError(function: "ioctl(EVIOCGNAME)", path: path, code: code)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        // A driver's name for logs and errors: bytes outside printable ASCII become '?'.
        self.path = path
        name = String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        descriptor = fd
    }

    /// The receiver `device` names: a path (starting with "/") is opened as it is; any other text is a device
    /// name, looked for among `directory`'s `event0`…`event255`, the first whose name is exactly it.
    ///
    /// - Throws: `EvdevError` with `ENOENT` when no device has that name (not there yet: the overlay not
    ///   loaded), or the error opening the path.
    public static func find(_ device: String, in directory: String = "/dev/input") throws -> EvdevDevice {
        if device.hasPrefix("/") { return try EvdevDevice(path: device) }
        for number in 0..<searchedDevices {
            let path = "\(directory)/event\(number)"
            guard access(path, F_OK) == 0 else { continue }
            guard let candidate = try? EvdevDevice(path: path) else { continue }
            if candidate.name == device { return candidate }
            candidate.close()
        }
        throw EvdevError(function: "find", path: "\(directory)/event* named \"\(device)\"", code: ENOENT)
    }

    /// Waits up to `timeoutMilliseconds` for events (wraps `poll(2)` and `read(2)`); returns early, maybe
    /// with none, when `wake` (a pipe's read end) becomes readable. EINTR and EAGAIN return no events.
    ///
    /// - Throws: `EvdevError` with `ENODEV` when the device went away (unplugged, its driver unbound).
    public func waitForEvents(wake: Int32, timeoutMilliseconds: Int32) throws -> [EvdevEvent] {
        guard descriptor >= 0 else { throw EvdevError(function: "poll", path: path, code: EBADF) }
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw EvdevError(function: "poll", path: path, code: errno)
        }
        let revents = Int32(fds[0].revents)
        if revents & (POLLERR | POLLHUP | POLLNVAL) != 0 && revents & POLLIN == 0 {
            throw EvdevError(function: "poll", path: path, code: ENODEV)
        }
        guard revents & POLLIN != 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: EvdevEvent.size * Self.recordsPerRead)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return [] }
            throw EvdevError(function: "read", path: path, code: errno)
        }
        return buffer.withUnsafeBytes { EvdevEvent.records(in: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Closes the descriptor (wraps `close(2)`); later waits throw `EBADF`.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }
}

/// An evdev call failed: which call, on which device, and the errno it set.
public struct EvdevError: Error, Equatable, CustomStringConvertible {
    /// The failing call, e.g. `open`, `read` or `find`.
    public let function: String
    /// The device path (or, for `find`, what was looked for).
    public let path: String
    /// The errno value.
    public let code: Int32

    public init(function: String, path: String, code: Int32) {
        self.function = function
        self.path = path
        self.code = code
    }

    public var description: String {
        switch (function, code) {
        case ("find", ENOENT):
            return "no input device \(path) (is dtoverlay=gpio-ir in /boot/firmware/config.txt?)"
        case ("open", ENOENT):
            return "\(path): no such input device"
        case ("open", EACCES):
            return "\(path): permission denied (add the user to group input)"
        case (_, ENODEV):
            return "\(path): the input device went away"
        default:
            return "\(path): \(function) failed: \(String(cString: strerror(code)))"
        }
    }
}
