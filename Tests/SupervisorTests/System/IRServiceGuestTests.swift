import Foundation
import Hardware
import Logging
import Threads
import WavedialTestSupport
import XCTest
@testable import Supervisor

/// The remote when its receiver is not there at the start and appears later (the overlay's device made late
/// at boot), and when it goes away in use and comes back: a uinput device in the gpio-vm guest
/// (scripts/test.d/gpio-vm); the host has no /dev/uinput, so on the host this skips.
final class IRServiceGuestTests: XCTestCase {
    private func wait(_ what: String, timeout: Double = 20, _ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(condition(), what)
    }

    func testAReceiverThatAppearsAfterTheStartIsReadAndOneThatGoesAndComesBackToo() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs /dev/uinput: run inside the VM (scripts/test.d/gpio-vm)")
        }
        var settings = IRSettings()
        settings.isEnabled = true
        settings.device = "wd-ir-late-\(UUID().uuidString.prefix(6))"
        let problems = Box<[String?]>([])
        let actions = Box<[IRAction]>([])
        let service = IRService(
            settings: settings, logger: Logger(label: "test.ir"), retry: Backoff(initial: 0.1, maximum: 0.4),
            onAction: { action in actions.update { $0.append(action) } },
            onProblem: { problem in problems.update { $0.append(problem) } })
        service.start()
        defer { service.stop() }
        wait("Remote offline while there is no receiver") { problems.value.contains("Remote offline") }

        let volumeUp = KeyCode(name: "KEY_VOLUMEUP")!
        var device: UInputDevice? = try UInputDevice(name: settings.device, keys: [volumeUp])
        wait("the notice cleared once the receiver is there") { problems.value.last == .some(nil) }
        try device?.press(volumeUp, repeats: 1)
        wait("two volume steps") { actions.value.count >= 2 }

        let reportsBefore = problems.value.count
        device = nil
        wait("Remote offline again") { problems.value.count > reportsBefore && problems.value.last == .some("Remote offline") }
        device = try UInputDevice(name: settings.device, keys: [volumeUp])
        wait("the notice cleared again") { problems.value.last == .some(nil) }
        try device?.press(volumeUp)
        wait("a third") { actions.value.count >= 3 }
        XCTAssertEqual(actions.value, [.volumeUp, .volumeUp, .volumeUp])
        XCTAssertEqual(RadioIntent.forRemote(.volumeUp, volumeStep: settings.volumeStepPercent), .changeVolume(byPercent: 2))
        XCTAssertEqual(Set(problems.value.compactMap { $0 }), ["Remote offline"], "no other words for a missing receiver")
    }
}
