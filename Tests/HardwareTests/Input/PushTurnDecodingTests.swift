import Hardware
import WavedialTestSupport
import XCTest

/// Push-and-turn on the tuning knob: turned while its switch is held it turns the volume; a short push
/// still clicks (mute); a push that turned neither clicks nor long-presses; letting go mid-turn
/// retunes nothing while the turn goes on (detents less than the grace apart).
final class PushTurnDecodingTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    private func settings(step: Int = 2, graceMilliseconds: UInt64 = 300) -> InputSettings {
        var settings = InputSettings()
        settings.encoder.acceleration.isEnabled = false
        var pushTurn = InputSettings.PushTurn()
        pushTurn.stepPercent = step
        pushTurn.graceNanoseconds = graceMilliseconds * ms
        settings.pushTurn = pushTurn
        return settings
    }

    private var pushLine: Int { InputDecoder.lines(for: InputSettings()).firstIndex { $0.role == "push" } ?? -1 }

    private func decode(_ edges: [GPIOEdge], _ settings: InputSettings) -> [InputEvent] {
        let lines = InputDecoder.lines(for: settings)
        let levels = lines.map { $0.role.hasPrefix("encoder.") }
        var decoder = InputDecoder(settings: settings, levels: levels, at: 0)
        var events: [InputEvent] = []
        var start = 0, batch = 1
        while start < edges.count {
            let end = min(edges.count, start + batch)
            events += decoder.handle(Array(edges[start..<end]))
            events += decoder.advance(to: edges[end - 1].timestamp)
            start = end
            batch = batch % 4 + 1
        }
        return events + decoder.advance(to: (edges.last?.timestamp ?? 0) + 10_000 * ms)
    }

    /// What the knob did, in order: `t+1` a detent, `v-2` a volume change, `push click` a push action.
    private func story(_ events: [InputEvent]) -> [String] {
        events.map { event in
            switch event.kind {
            case .detent(let delta): return "t\(delta > 0 ? "+" : "")\(delta)"
            case .volumeChange(let percent): return "v\(percent > 0 ? "+" : "")\(percent)"
            case .button(let name, let action): return "\(name) \(action.rawValue)"
            }
        }
    }

    func testTurningWhileHeldTurnsTheVolumeAndThePushDoesNotMute() {
        for seed in 1...20 as ClosedRange<UInt64> {
            var knob = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: seed, at: 1_100 * ms)
            var push = ButtonSignalGenerator(line: pushLine, seed: seed)
            // Pressed at 1.0 s, three detents down from 1.1 s (done by 1.4 s), released at 1.9 s: the turn had rested.
            let edges = [GPIOEdge].merged([push.press(at: 1_000 * ms, holdingFor: 900 * ms), knob.turn(-3, every: 100 * ms)])
            XCTAssertEqual(story(decode(edges, settings(step: 4))),
                           ["push press", "v-4", "v-4", "v-4", "push release"], "seed \(seed)")
        }
    }

    func testAShortPushWithoutATurnStillClicksAndALongOneStillLongPresses() {
        var push = ButtonSignalGenerator(line: pushLine, seed: 3)
        let edges = push.press(at: 1_000 * ms, holdingFor: 120 * ms) + push.press(at: 3_000 * ms, holdingFor: 1_500 * ms)
        XCTAssertEqual(story(decode(edges, settings())),
                       ["push press", "push release", "push click", "push press", "push long", "push release"])
    }

    func testAPushThatTurnedBeforeItsLongPressTimeIsNoLongPress() {
        var knob = EncoderSignalGenerator(stepsPerDetent: .four, seed: 1, at: 1_200 * ms)
        var push = ButtonSignalGenerator(line: pushLine, seed: 1)
        let edges = [GPIOEdge].merged([push.press(at: 1_000 * ms, holdingFor: 2_000 * ms), knob.turn(2, every: 100 * ms)])
        XCTAssertEqual(story(decode(edges, settings())), ["push press", "v+2", "v+2", "push release"])
    }

    /// Let go mid-turn: the detents that follow within the grace of each other are still volume; once the
    /// knob rests longer than the grace, it tunes again.
    func testReleasingThePushMidTurnRetunesNothingUntilTheKnobRests() {
        for seed in 1...20 as ClosedRange<UInt64> {
            var knob = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: seed, at: 1_100 * ms)
            var push = ButtonSignalGenerator(line: pushLine, seed: seed + 7)
            // Detents complete at 1.2125, 1.3625, …, 1.9625 s (150 ms apart); the push opens at 1.5 s, mid-turn.
            var edges = [GPIOEdge].merged([push.press(at: 1_000 * ms, holdingFor: 500 * ms), knob.turn(6, every: 150 * ms)])
            knob.rest(500 * ms)
            edges += knob.turn(2, every: 150 * ms)
            XCTAssertEqual(story(decode(edges, settings())),
                           ["push press", "v+2", "v+2", "v+2", "push release", "v+2", "v+2", "v+2", "t+1", "t+1"], "seed \(seed)")
        }
    }

    func testAfterAPushAndTurnTheNextShortPushMutesAgain() {
        var knob = EncoderSignalGenerator(stepsPerDetent: .four, seed: 5, at: 1_100 * ms)
        var push = ButtonSignalGenerator(line: pushLine, seed: 5)
        let edges = [GPIOEdge].merged([
            push.press(at: 1_000 * ms, holdingFor: 600 * ms), knob.turn(1, every: 100 * ms),
            push.press(at: 1_650 * ms, holdingFor: 100 * ms),
        ])
        XCTAssertEqual(story(decode(edges, settings())),
                       ["push press", "v+2", "push release", "push press", "push release", "push click"])
    }

    func testWithPushTurnOffAHeldTurnTunesAndThePushClicks() {
        var settings = settings()
        settings.pushTurn = nil
        var knob = EncoderSignalGenerator(stepsPerDetent: .four, seed: 6, at: 1_100 * ms)
        var push = ButtonSignalGenerator(line: pushLine, seed: 6)
        let edges = [GPIOEdge].merged([push.press(at: 1_000 * ms, holdingFor: 400 * ms), knob.turn(2, every: 100 * ms)])
        XCTAssertEqual(story(decode(edges, settings)), ["push press", "t+1", "t+1", "push release", "push click"])
    }

    func testATurnWithoutThePushTunesAsBefore() {
        var knob = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: 8)
        XCTAssertEqual(story(decode(knob.turn(-3, every: 100 * ms), settings())), ["t-1", "t-1", "t-1"])
    }
}
