import Hardware
import WavedialTestSupport
import XCTest

/// The second encoder, `[hardware.volume_encoder]`: decoded like the tuning knob (bounce, missed
/// states, acceleration), each detent a volume change of the step; its push a button `volume_push`.
final class VolumeKnobDecodingTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    private func settings(_ steps: QuadratureDecoder.StepsPerDetent = .four, step: Int = 2, accelerated: Bool = false) -> InputSettings {
        var settings = InputSettings()
        settings.encoder.acceleration.isEnabled = false
        var knob = InputSettings.VolumeKnob()
        knob.encoder.stepsPerDetent = steps
        knob.encoder.acceleration.isEnabled = accelerated
        knob.stepPercent = step
        settings.volumeKnob = knob
        return settings
    }

    private func line(_ role: String, _ settings: InputSettings) -> Int {
        InputDecoder.lines(for: settings).firstIndex { $0.role == role } ?? -1
    }

    /// Decodes `edges` with both encoders resting at `restLevel` and the buttons open, then flushes the timers.
    private func decode(_ edges: [GPIOEdge], _ settings: InputSettings, restLevel: Bool = true) -> [InputEvent] {
        let lines = InputDecoder.lines(for: settings)
        let levels = lines.map { $0.role.hasSuffix(".a") || $0.role.hasSuffix(".b") ? restLevel : false }
        var decoder = InputDecoder(settings: settings, levels: levels, at: 0)
        var events: [InputEvent] = []
        var start = 0, batch = 1
        while start < edges.count {
            let end = min(edges.count, start + batch)
            events += decoder.handle(Array(edges[start..<end]))
            start = end
            batch = batch % 5 + 1
        }
        return events + decoder.advance(to: (edges.last?.timestamp ?? 0) + 10_000 * ms)
    }

    private func volume(_ events: [InputEvent]) -> [Int] {
        events.compactMap { if case .volumeChange(let percent) = $0.kind { return percent } else { return nil } }
    }

    private func detents(_ events: [InputEvent]) -> [Int] {
        events.compactMap { if case .detent(let delta) = $0.kind { return delta } else { return nil } }
    }

    func testTheVolumeKnobsLinesComeAfterTheOthersAndOnlyWhenConfigured() {
        XCTAssertEqual(InputDecoder.lines(for: InputSettings()).map(\.role),
                       ["encoder.a", "encoder.b", "push", "play", "pause", "back", "forward", "favorite"])
        let lines = InputDecoder.lines(for: settings())
        XCTAssertEqual(lines.map(\.role), ["encoder.a", "encoder.b", "push", "play", "pause", "back", "forward", "favorite",
                                           "volume_push", "volume_encoder.a", "volume_encoder.b"])
        XCTAssertEqual(lines.suffix(3).map(\.line), [11, 10, 9])
        var noPush = settings()
        noPush.volumeKnob?.encoder.push = nil
        XCTAssertEqual(InputDecoder.lines(for: noPush).suffix(2).map(\.role), ["volume_encoder.a", "volume_encoder.b"])
    }

    func testEveryDetentTypeWithBounceAndMissedStatesIsExactlyOneStepOfVolume() {
        for steps in QuadratureDecoder.StepsPerDetent.allCases {
            for restLevel in [false, true] {
                for interval: UInt64 in [200 * ms, 50 * ms, 10 * ms, 3 * ms] {
                    for seed in 1...5 as ClosedRange<UInt64> {
                        let settings = settings(steps, step: 3)
                        var generator = EncoderSignalGenerator(
                            stepsPerDetent: steps, restLevel: restLevel, lineA: line("volume_encoder.a", settings),
                            lineB: line("volume_encoder.b", settings), bounce: ContactBounce(),
                            missingStateProbability: steps == .one ? 0 : 0.2, seed: seed)
                        var edges: [GPIOEdge] = []
                        var intended: [Int] = []
                        for turn in [6, -4, 1, -1, 9] {
                            edges += generator.turn(turn, every: interval)
                            intended += Array(repeating: turn > 0 ? 3 : -3, count: abs(turn))
                            generator.rest(300 * ms)
                        }
                        let events = decode(edges, settings, restLevel: restLevel)
                        let label = "\(steps) rest \(restLevel) every \(interval / ms) ms seed \(seed)"
                        if steps == .one {
                            // One step a detent reports what settled: the same sum, the same directions.
                            XCTAssertEqual(volume(events).reduce(0, +), intended.reduce(0, +), label)
                            XCTAssertEqual(volume(events).filter { $0 > 0 }.reduce(0, +), 16 * 3, label)
                        } else {
                            XCTAssertEqual(volume(events), intended, label)
                        }
                        XCTAssertEqual(detents(events), [], "the needle never moves: \(label)")
                    }
                }
            }
        }
    }

    func testAFastTurnIsAcceleratedLikeTheTuningKnobs() {
        let settings = settings(step: 2, accelerated: true)
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, lineA: line("volume_encoder.a", settings),
                                               lineB: line("volume_encoder.b", settings), bounce: ContactBounce(), seed: 9)
        XCTAssertEqual(volume(decode(generator.turn(5, every: 50 * ms), settings)), [2, 8, 8, 8, 8])
    }

    func testAnInvertedVolumeKnobTurnsTheOtherWay() {
        var settings = settings()
        settings.volumeKnob?.encoder.isInverted = true
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, lineA: line("volume_encoder.a", settings),
                                               lineB: line("volume_encoder.b", settings), seed: 2)
        XCTAssertEqual(volume(decode(generator.turn(2, every: 100 * ms), settings)), [-2, -2])
    }

    func testBothKnobsAtOnceAndTheVolumePushEachDoExactlyTheirOwn() {
        let settings = settings(step: 5)
        for seed in 1...10 as ClosedRange<UInt64> {
            var tuning = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), seed: seed)
            var volumeKnob = EncoderSignalGenerator(
                stepsPerDetent: .four, lineA: line("volume_encoder.a", settings), lineB: line("volume_encoder.b", settings),
                bounce: ContactBounce(), seed: seed + 50, at: 1_013 * ms)
            var push = ButtonSignalGenerator(line: line("volume_push", settings), seed: seed + 100)
            let edges = [GPIOEdge].merged([
                tuning.turn(8, every: 37 * ms), volumeKnob.turn(-6, every: 41 * ms),
                push.press(at: 1_500 * ms, holdingFor: 90 * ms),
            ])
            let events = decode(edges, settings)
            XCTAssertEqual(detents(events), Array(repeating: 1, count: 8), "seed \(seed)")
            XCTAssertEqual(volume(events), Array(repeating: -5, count: 6), "seed \(seed)")
            let pushes = events.compactMap { event -> String? in
                guard case .button(let name, let action) = event.kind else { return nil }
                return "\(name) \(action.rawValue)"
            }
            XCTAssertEqual(pushes, ["volume_push press", "volume_push release", "volume_push click"], "seed \(seed)")
            XCTAssertEqual(events.map(\.timestamp), events.map(\.timestamp).sorted(), "seed \(seed)")
        }
    }

    /// A volume detent is timestamped like a tuning one: the kernel time of the edge that completed it.
    func testAVolumeDetentCarriesTheTimeOfTheEdgeThatCompletedIt() {
        let settings = settings()
        var tuning = EncoderSignalGenerator(stepsPerDetent: .four, seed: 4)
        var volumeKnob = EncoderSignalGenerator(stepsPerDetent: .four, lineA: line("volume_encoder.a", settings),
                                                lineB: line("volume_encoder.b", settings), seed: 4)
        let tuningEvents = decode(tuning.turn(3, every: 80 * ms), settings)
        let volumeEdges = volumeKnob.turn(3, every: 80 * ms)
        let volumeEvents = decode(volumeEdges, settings)
        XCTAssertEqual(volumeEvents.map(\.timestamp), tuningEvents.map(\.timestamp))
        XCTAssertEqual(volumeEvents.last?.timestamp, volumeEdges.last?.timestamp)
    }
}
