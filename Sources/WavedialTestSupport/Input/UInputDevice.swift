import CEvdev
import Foundation
import Hardware

/// A real evdev input device made through the kernel's uinput (`/dev/uinput`): it appears as
/// `/dev/input/eventN` with the given name, as rc-core's IR receiver does, and sends the key events a test
/// writes. Needs the uinput and evdev modules (the gpio-vm guest loads them); the device goes away at `destroy()`
/// or deinit, and its readers see it gone.
public final class UInputDevice {
    public let name: String
    private var descriptor: Int32

    /// Makes the device: `name`, sending `keys`; with `autorepeat` the kernel repeats held keys itself (EV_REP,
    /// value 2 after 250 ms, then every 33 ms), as it does for rc-core's receivers.
    public init(name: String, keys: [KeyCode], autorepeat: Bool = false) throws {
        self.name = name
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw UInputError("open /dev/uinput: \(String(cString: strerror(errno))) (modprobe uinput?)") }
        descriptor = fd
        var ok = CEvdev_uinputEnableType(fd, Int32(EV_KEY)) >= 0 && CEvdev_uinputEnableType(fd, Int32(EV_SYN)) >= 0
        if autorepeat { ok = ok && CEvdev_uinputEnableType(fd, Int32(EV_REP)) >= 0 }
        for key in keys { ok = ok && CEvdev_uinputEnableKey(fd, Int32(key.rawValue)) >= 0 }
        guard ok, CEvdev_uinputCreate(fd, name) >= 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            descriptor = -1
            throw UInputError("creating the uinput device \(name): \(message)")
        }
    }

    /// The device's node under `/dev/input`, once udev-less devtmpfs shows it (up to 5 s).
    public func eventPath(timeout: TimeInterval = 5) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            for number in 0..<256 {
                let path = "/dev/input/event\(number)"
                if let device = try? EvdevDevice(path: path), device.name == name { return path }
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// Sends `events` as they are (a test adds the `SYN_REPORT`s it wants).
    public func send(_ events: [EvdevEvent]) throws {
        for event in events {
            var record = input_event()
            record.type = event.type
            record.code = event.code
            record.value = event.value
            let written = withUnsafeBytes(of: &record) { write(descriptor, $0.baseAddress, $0.count) }
            guard written == MemoryLayout<input_event>.size else {
                throw UInputError("writing to uinput: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Presses `key` (value 1), sends `repeats` autorepeats (value 2) and releases it (0), each a report.
    public func press(_ key: KeyCode, repeats: Int = 0) throws {
        let report = EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.report, value: 0)
        var events = [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 1), report]
        for _ in 0..<repeats { events += [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 2), report] }
        events += [EvdevEvent(type: EvdevEvent.key, code: key.rawValue, value: 0), report]
        try send(events)
    }

    /// Removes the device.
    public func destroy() {
        guard descriptor >= 0 else { return }
        _ = CEvdev_uinputDestroy(descriptor)
        close(descriptor)
        descriptor = -1
    }

    deinit { destroy() }
}

/// uinput could not make or drive the device.
public struct UInputError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
