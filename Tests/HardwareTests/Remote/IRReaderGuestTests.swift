import Foundation
import Hardware
import Logging
import WavedialTestSupport
import XCTest

/// The remote's reader against real evdev devices made with uinput, in the gpio-vm guest
/// (scripts/test.d/gpio-vm): the host has no /dev/uinput, so these skip there.
final class IRReaderGuestTests: XCTestCase {
    private func key(_ name: String) -> KeyCode {
        guard let key = KeyCode(name: name) else { preconditionFailure("no \(name)") }
        return key
    }

    private func makeDevice(_ name: String, autorepeat: Bool = false) throws -> UInputDevice {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs /dev/uinput: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let keys = ["KEY_VOLUMEUP", "KEY_VOLUMEDOWN", "KEY_MUTE", "KEY_NEXT", "KEY_1", "KEY_A"].map(key)
        let device = try UInputDevice(name: name, keys: keys, autorepeat: autorepeat)
        XCTAssertNotNil(device.eventPath(), "the device node appeared")
        return device
    }

    /// Collects the reader's actions and failures from its thread.
    private final class Collector: @unchecked Sendable {
        private let condition = NSCondition()
        private var actions: [IRAction] = []
        private var failures: [Error] = []

        var handlers: IRReader.Handlers {
            .init(action: { action in self.locked { self.actions.append(action) } },
                  failure: { error in self.locked { self.failures.append(error) } })
        }

        func wait(timeout: TimeInterval = 20, until done: ([IRAction], [Error]) -> Bool) -> [IRAction] {
            let limit = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while !done(actions, failures) && condition.wait(until: limit) {}
            return actions
        }

        var receivedFailures: [Error] { condition.lock(); defer { condition.unlock() }; return failures }

        private func locked(_ body: () -> Void) {
            condition.lock()
            body()
            condition.broadcast()
            condition.unlock()
        }
    }

    private func reader(_ device: String, _ collector: Collector) -> IRReader {
        var settings = IRSettings()
        settings.device = device
        return IRReader(settings: settings, logger: Logger(label: "test.ir"), handlers: collector.handlers)
    }

    func testTheReceiverIsFoundByNameAmongOtherDevicesAndItsKeysBecomeActions() throws {
        let other = try makeDevice("wd-keyboard")
        let remote = try makeDevice("wd-gpio-ir-\(UUID().uuidString.prefix(6))")
        let collector = Collector()
        let ir = reader(remote.name, collector)
        try ir.start()
        defer { ir.stop() }
        try other.press(key("KEY_MUTE"))  // another device's keys are not the remote's
        try remote.press(key("KEY_MUTE"))
        try remote.press(key("KEY_A"))  // not in the map
        try remote.press(key("KEY_1"))
        let actions = collector.wait { actions, _ in actions.count >= 2 }
        XCTAssertEqual(actions, [.mute, .favoriteNumber(1)])
        XCTAssertTrue(collector.receivedFailures.isEmpty, "\(collector.receivedFailures)")
    }

    func testAHeldKeyRepeatsTheVolumeButNotAStationStep() throws {
        let remote = try makeDevice("wd-ir-held-\(UUID().uuidString.prefix(6))")
        let collector = Collector()
        let ir = reader(remote.name, collector)
        try ir.start()
        defer { ir.stop() }
        try remote.press(key("KEY_NEXT"), repeats: 6)
        try remote.press(key("KEY_VOLUMEUP"), repeats: 3)
        try remote.press(key("KEY_MUTE"))  // the end marker
        let actions = collector.wait { actions, _ in actions.last == .mute }
        XCTAssertEqual(actions, [.next, .volumeUp, .volumeUp, .volumeUp, .volumeUp, .mute])
    }

    func testTheKernelsOwnAutorepeatRepeatsTheVolume() throws {
        // EV_REP: the input core repeats a held key itself (250 ms, then every 33 ms), as for rc-core's receivers.
        let remote = try makeDevice("wd-ir-rep-\(UUID().uuidString.prefix(6))", autorepeat: true)
        let collector = Collector()
        let ir = reader(remote.name, collector)
        try ir.start()
        defer { ir.stop() }
        let report = EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.report, value: 0)
        for name in ["KEY_NEXT", "KEY_VOLUMEDOWN"] {
            try remote.send([EvdevEvent(type: EvdevEvent.key, code: key(name).rawValue, value: 1), report])
            Thread.sleep(forTimeInterval: 1)  // held: the kernel sends its repeats meanwhile
            try remote.send([EvdevEvent(type: EvdevEvent.key, code: key(name).rawValue, value: 0), report])
        }
        try remote.press(key("KEY_MUTE"))
        let actions = collector.wait { actions, _ in actions.last == .mute }
        XCTAssertEqual(actions.filter { $0 == .next }.count, 1, "\(actions)")
        XCTAssertGreaterThan(actions.filter { $0 == .volumeDown }.count, 2, "the kernel's repeats: \(actions)")
        XCTAssertEqual(Set(actions), [.next, .volumeDown, .mute])
    }

    func testAMissingDeviceIsAnErrorAndOneThatGoesAwayStopsTheReader() throws {
        let remote = try makeDevice("wd-ir-gone-\(UUID().uuidString.prefix(6))")
        let collector = Collector()
        XCTAssertThrowsError(try reader("wd-no-such-receiver", collector).start()) { error in
            XCTAssertEqual((error as? EvdevError)?.code, ENOENT, "\(error)")
        }
        let path = try XCTUnwrap(remote.eventPath())
        let ir = reader(path, collector)  // by path, as `[ir] device = "/dev/input/..."` allows
        try ir.start()
        defer { ir.stop() }
        try remote.press(key("KEY_VOLUMEDOWN"))
        XCTAssertEqual(collector.wait { actions, _ in !actions.isEmpty }, [.volumeDown])
        remote.destroy()
        _ = collector.wait { _, failures in !failures.isEmpty }
        XCTAssertEqual((collector.receivedFailures.first as? EvdevError)?.code, ENODEV, "\(collector.receivedFailures)")
    }
}
