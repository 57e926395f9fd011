import Foundation
import Hardware
import Logging
import WavedialTestSupport
import XCTest

/// The whole input path on the real kernel stack: gpio-sim lines driven like a knob and buttons,
/// requested by GpiodBackend, read by InputReader's thread, decoded by InputDecoder.
final class GpiodInputGPIOSimTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    /// Settings for a gpio-sim chip: encoder on 0 and 1, push on 2, buttons on 3 to 7.
    private func settings(chip: String, steps: QuadratureDecoder.StepsPerDetent) -> InputSettings {
        var settings = InputSettings()
        settings.chip = chip
        settings.encoder.a = 0
        settings.encoder.b = 1
        settings.encoder.push = 2
        settings.encoder.stepsPerDetent = steps
        settings.encoder.acceleration.isEnabled = false
        for (index, offset) in (3...7).enumerated() { settings.buttons[index].line = .offset(UInt32(offset)) }
        return settings
    }

    private func startReader(_ settings: InputSettings, _ collector: InputEventCollector) throws -> InputReader {
        let reader = InputReader(settings: settings, backend: try GpiodBackend(),
                                 logger: Logger(label: "test.gpio"), handlers: collector.handlers)
        try reader.start()
        return reader
    }

    func testKnobTurnsThroughTheKernelYieldExactlyTheIntendedDetents() throws {
        let sim = try makeSimChip(lines: 8)
        let cases: [(QuadratureDecoder.StepsPerDetent, ContactBounce, UInt64)] = [
            (.four, ContactBounce(), 20 * ms), (.two, ContactBounce(), 20 * ms), (.one, .none, 40 * ms),
        ]
        for (steps, bounce, interval) in cases {
            let collector = InputEventCollector()
            let reader = try startReader(settings(chip: sim.name, steps: steps), collector)
            // The encoder lines rest high (pull-up bias, not active low).
            var generator = EncoderSignalGenerator(stepsPerDetent: steps, restLevel: true, bounce: bounce, seed: 7)
            var edges: [GPIOEdge] = []
            var intended: [Int] = []
            for turn in [6, -4, 1, -1, 9] {
                edges += generator.turn(turn, every: interval)
                intended += Array(repeating: turn > 0 ? 1 : -1, count: abs(turn))
                generator.rest(100 * ms)
            }
            try sim.play(edges, offsets: [0, 1], activeLow: [false, false], minimumLineGap: 3_000_000)
            let events = collector.wait { detents($0).reduce(0) { $0 + abs($1) } >= intended.count }
            reader.stop()
            XCTAssertEqual(detents(events), intended, "\(steps)")
            XCTAssertTrue(collector.receivedFailures.isEmpty)
        }
    }

    func testButtonPressesThroughTheKernelYieldClicksAndLongPresses() throws {
        let sim = try makeSimChip(lines: 8)
        var settings = settings(chip: sim.name, steps: .four)
        settings.longPressNanoseconds = 400 * ms
        let collector = InputEventCollector()
        let reader = try startReader(settings, collector)
        defer { reader.stop() }
        // Buttons are active low with pull-ups: pressed pulls the pin low.
        var play = ButtonSignalGenerator(line: 0, seed: 1)
        var favorite = ButtonSignalGenerator(line: 1, seed: 2)
        var push = ButtonSignalGenerator(line: 2, seed: 3)
        let edges = [GPIOEdge].merged([
            play.press(at: 0, holdingFor: 100 * ms),
            favorite.press(at: 200 * ms, holdingFor: 700 * ms),
            push.press(at: 1_100 * ms, holdingFor: 80 * ms),
        ])
        try sim.play(edges, offsets: [3, 7, 2], activeLow: [true, true, true], minimumLineGap: 3_000_000)
        let events = collector.wait { actions($0, of: "push").contains(.click) }
        XCTAssertEqual(actions(events, of: "play"), [.press, .release, .click])
        XCTAssertEqual(actions(events, of: "favorite"), [.press, .long, .release])
        XCTAssertEqual(actions(events, of: "push"), [.press, .release, .click])
        XCTAssertTrue(detents(events).isEmpty)
    }

    func testSecondReaderOnTheSameLinesIsToldTheLinesAreBusy() throws {
        let sim = try makeSimChip(lines: 8)
        let settings = settings(chip: sim.name, steps: .four)
        let first = try startReader(settings, InputEventCollector())
        defer { first.stop() }
        let second = InputReader(settings: settings, backend: try GpiodBackend(), logger: Logger(label: "test.gpio"),
                                 handlers: InputEventCollector().handlers)
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertEqual((error as? GPIOError)?.code, .lineBusy)
        }
    }
}
