import Foundation
import Hardware
import Logging
import Threads
import WavedialTestSupport
import XCTest
@testable import Supervisor

/// The appliance's input when its GPIO chip is not there at the start and appears later (a driver
/// loaded late, an overlay applied), and when it goes away in use and comes back: gpio-sim in the gpio-vm guest (scripts/test.d/gpio-vm); the host
/// kernel has no gpio-sim, so on the host this skips (the missing chip alone is DaemonDeviceFaultTests').
final class InputServiceGPIOSimTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    private func wait(_ what: String, timeout: Double = 20, _ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(condition(), what)
    }

    func testAChipThatAppearsAfterTheStartIsTakenAndOneThatGoesAndComesBackToo() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs the kernel's gpio-sim: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let label = GPIOSimChip.uniqueLabel()
        var settings = InputSettings()
        settings.chip = label  // by label, as `[hardware] chip` allows
        settings.encoder.a = 0
        settings.encoder.b = 1
        settings.encoder.push = 2
        settings.encoder.acceleration.isEnabled = false
        for (index, offset) in (3...7).enumerated() { settings.buttons[index].line = .offset(UInt32(offset)) }
        let problems = Box<[String?]>([])
        let events = Box<[InputEvent]>([])
        let service = InputService(
            settings: settings, logger: Logger(label: "test.input"), retry: Backoff(initial: 0.1, maximum: 0.4),
            onEvent: { event in events.update { $0.append(event) } },
            onProblem: { problem in problems.update { $0.append(problem) } })
        service.start()
        defer { service.stop() }
        wait("Knob offline while there is no chip") { problems.value.contains("Knob offline") }

        var sim: GPIOSimChip? = try GPIOSimChip(lines: 8, label: label)
        wait("the notice cleared once the chip is there") { problems.value.last == .some(nil) }
        // The encoder lines rest high (pull-up bias): three detents clockwise.
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, restLevel: true, bounce: .none, seed: 11)
        try sim?.play(generator.turn(3, every: 20 * ms), offsets: [0, 1], activeLow: [false, false], minimumLineGap: 3 * ms)
        let detents = { events.value.compactMap { event -> Int? in if case .detent(let delta) = event.kind { return delta } else { return nil } } }
        wait("three detents") { detents().reduce(0, +) >= 3 }
        XCTAssertEqual(detents(), [1, 1, 1])

        // The chip goes away while in use (its driver unbound) and comes back.
        let reportsBefore = problems.value.count
        sim = nil
        wait("Knob offline again") { problems.value.count > reportsBefore && problems.value.last == .some("Knob offline") }
        sim = try GPIOSimChip(lines: 8, label: label)
        wait("the notice cleared again") { problems.value.last == .some(nil) }
        try sim?.play(generator.turn(-2, every: 20 * ms), offsets: [0, 1], activeLow: [false, false], minimumLineGap: 3 * ms)
        wait("two detents back") { detents().count >= 5 }
        XCTAssertEqual(detents(), [1, 1, 1, -1, -1])
        XCTAssertEqual(Set(problems.value.compactMap { $0 }), ["Knob offline"], "no other words for a missing chip")
        service.stop()
    }
}
