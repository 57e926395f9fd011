import Hardware
import WavedialTestSupport
import XCTest

final class InputDecoderTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    private func settings(_ steps: QuadratureDecoder.StepsPerDetent, accelerated: Bool = false) -> InputSettings {
        var settings = InputSettings()
        settings.encoder.stepsPerDetent = steps
        settings.encoder.acceleration.isEnabled = accelerated
        return settings
    }

    /// Decodes `edges` with idle levels (encoder at `restLevel`, buttons open) and flushes pending timers.
    private func decode(_ edges: [GPIOEdge], _ settings: InputSettings, restLevel: Bool = true) -> [InputEvent] {
        let lines = InputDecoder.lines(for: settings)
        var levels = Array(repeating: false, count: lines.count)
        levels[0] = restLevel
        levels[1] = restLevel
        var decoder = InputDecoder(settings: settings, levels: levels, at: 0)
        var events: [InputEvent] = []
        // Delivered in uneven batches, as a backend reads them.
        var start = 0, batch = 1
        while start < edges.count {
            let end = min(edges.count, start + batch)
            events += decoder.handle(Array(edges[start..<end]))
            start = end
            batch = batch % 7 + 1
        }
        events += decoder.advance(to: (edges.last?.timestamp ?? 0) + 10_000 * ms)
        return events
    }

    private func detents(_ events: [InputEvent]) -> [Int] {
        events.compactMap { if case .detent(let delta) = $0.kind { return delta } else { return nil } }
    }

    /// Turns forwards, backwards and forwards again with pauses between; returns the edges and the intended detents.
    private func scenario(_ generator: inout EncoderSignalGenerator, every interval: UInt64) -> ([GPIOEdge], [Int]) {
        var edges: [GPIOEdge] = []
        var intended: [Int] = []
        for turn in [7, -5, 1, -1, 12, -3] {
            edges += generator.turn(turn, every: interval)
            intended += Array(repeating: turn > 0 ? 1 : -1, count: abs(turn))
            generator.rest(300 * ms)
        }
        return (edges, intended)
    }

    func testEveryDetentTypeAtEverySpeedWithBounceYieldsExactlyTheIntendedDetents() {
        let speeds: [UInt64] = [1_000, 500, 200, 100, 50, 20, 10, 5].map { $0 * ms }
        for steps in QuadratureDecoder.StepsPerDetent.allCases {
            for restLevel in [false, true] {
                for interval in speeds {
                    for seed in 1...8 as ClosedRange<UInt64> {
                        var generator = EncoderSignalGenerator(stepsPerDetent: steps, restLevel: restLevel,
                                                               bounce: ContactBounce(), seed: seed)
                        let (edges, intended) = scenario(&generator, every: interval)
                        XCTAssertEqual(detents(decode(edges, settings(steps), restLevel: restLevel)), intended,
                                       "\(steps) rest \(restLevel) every \(interval / ms) ms seed \(seed)")
                    }
                }
            }
        }
    }

    func testVeryFastSpinsWithBounceLoseNothing() {
        // 4 and 2 steps report every detent; 1 step reports what settled, so compare the sums and signs.
        for steps in QuadratureDecoder.StepsPerDetent.allCases {
            for interval: UInt64 in [4 * ms, 2 * ms, 1 * ms] {
                for seed in 1...10 as ClosedRange<UInt64> {
                    var generator = EncoderSignalGenerator(stepsPerDetent: steps, bounce: ContactBounce(), seed: seed)
                    let (edges, intended) = scenario(&generator, every: interval)
                    let decoded = detents(decode(edges, settings(steps)))
                    let label = "\(steps) every \(interval) ns seed \(seed)"
                    if steps == .one {
                        XCTAssertEqual(decoded.reduce(0, +), intended.reduce(0, +), label)
                        XCTAssertEqual(decoded.filter { $0 > 0 }.reduce(0, +), 20, label)
                        XCTAssertEqual(decoded.filter { $0 < 0 }.reduce(0, +), -9, label)
                    } else {
                        XCTAssertEqual(decoded, intended, label)
                    }
                }
            }
        }
    }

    func testFastSpinsWithMissingIntermediateStatesYieldExactlyTheIntendedDetents() {
        for steps in [QuadratureDecoder.StepsPerDetent.two, .four] {
            for seed in 1...30 as ClosedRange<UInt64> {
                var generator = EncoderSignalGenerator(stepsPerDetent: steps, missingStateProbability: 0.3, seed: seed)
                let (edges, intended) = scenario(&generator, every: 3 * ms)
                XCTAssertEqual(detents(decode(edges, settings(steps))), intended, "\(steps) seed \(seed)")
            }
        }
    }

    func testInvertedEncoderYieldsTheOppositeDetents() {
        var settings = settings(.four)
        settings.encoder.isInverted = true
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: 3)
        let (edges, intended) = scenario(&generator, every: 50 * ms)
        XCTAssertEqual(detents(decode(edges, settings)), intended.map { -$0 })
    }

    func testFastTurnIsAcceleratedWhenEnabled() {
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: 9)
        let edges = generator.turn(5, every: 50 * ms)
        XCTAssertEqual(detents(decode(edges, settings(.four, accelerated: true))), [1, 4, 4, 4, 4])
    }

    func testButtonsAndTheKnobTogetherYieldEveryIntendedAction() {
        var settings = settings(.four)
        settings.pushTurn = nil  // the push comes mid-turn: with push-and-turn that is a volume turn (PushTurnDecodingTests)
        let lines = InputDecoder.lines(for: settings)
        XCTAssertEqual(lines.map(\.role), ["encoder.a", "encoder.b", "push", "play", "pause", "back", "forward", "favorite"])
        let line = { (role: String) in lines.firstIndex { $0.role == role }! }
        for seed in 1...20 as ClosedRange<UInt64> {
            var knob = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: seed)
            var favorite = ButtonSignalGenerator(line: line("favorite"), seed: seed)
            var play = ButtonSignalGenerator(line: line("play"), seed: seed + 100)
            var push = ButtonSignalGenerator(line: line("push"), seed: seed + 200)
            let edges = [GPIOEdge].merged([
                knob.turn(10, every: 30 * ms),
                favorite.press(at: 1_000 * ms, holdingFor: 1_200 * ms),
                play.press(at: 1_100 * ms, holdingFor: 120 * ms),
                push.press(at: 1_150 * ms, holdingFor: 60 * ms),
                play.press(at: 1_500 * ms, holdingFor: 90 * ms),
            ])
            let events = decode(edges, settings)
            XCTAssertEqual(detents(events), Array(repeating: 1, count: 10), "seed \(seed)")
            func actions(_ name: String) -> [ButtonAction] {
                events.compactMap { if case .button(name, let action) = $0.kind { return action } else { return nil } }
            }
            XCTAssertEqual(actions("favorite"), [.press, .long, .release], "seed \(seed)")
            XCTAssertEqual(actions("play"), [.press, .release, .click, .press, .release, .click], "seed \(seed)")
            XCTAssertEqual(actions("push"), [.press, .release, .click], "seed \(seed)")
            XCTAssertTrue(actions("pause").isEmpty && actions("back").isEmpty && actions("forward").isEmpty)
            XCTAssertEqual(events.map(\.timestamp), events.map(\.timestamp).sorted(), "events out of order, seed \(seed)")
        }
    }

    func testSimultaneousEdgesOfBothContactsAreOneChange() {
        // From 11, forwards: A falls (01), then A rises and B falls at the same instant (10: read in
        // this order it would pass through 11, two steps backwards), then B rises (11).
        let edges = [GPIOEdge(line: 0, .falling, at: 1_000), GPIOEdge(line: 0, .rising, at: 2_000),
                     GPIOEdge(line: 1, .falling, at: 2_000), GPIOEdge(line: 1, .rising, at: 3_000)]
        XCTAssertEqual(detents(decode(edges, settings(.four))), [1])
    }

    func testDefaultsAreTheDocumentedOnes() {
        let settings = InputSettings()
        XCTAssertEqual(settings.backend, .gpiod)
        XCTAssertEqual(settings.chip, "gpiochip0")
        XCTAssertEqual([settings.encoder.a, settings.encoder.b, settings.encoder.push], [17, 27, 22])
        XCTAssertEqual(settings.encoder.stepsPerDetent, .four)
        XCTAssertEqual(settings.buttons.map(\.name), ["play", "pause", "back", "forward", "favorite"])
        XCTAssertEqual(settings.buttons.map(\.line), [5, 6, 13, 16, 26])
        XCTAssertEqual(settings.debounceNanoseconds, 30 * ms)
        XCTAssertEqual(settings.longPressNanoseconds, 800 * ms)
    }
}
