import Hardware
import WavedialTestSupport
import XCTest

final class ButtonDecoderTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    /// Feeds `edges` of line 0 and advances to `end`; returns the actions with their times.
    private func decode(_ edges: [GPIOEdge], until end: UInt64,
                        _ decoder: ButtonDecoder = ButtonDecoder()) -> [(action: ButtonAction, time: UInt64)] {
        var decoder = decoder
        var actions = edges.flatMap { decoder.update(pressed: $0.level, at: $0.timestamp) }
        actions += decoder.advance(to: end)
        return actions
    }

    func testShortPressWithBounceIsOnePressReleaseAndClick() {
        for seed in 1...50 as ClosedRange<UInt64> {
            var signal = ButtonSignalGenerator(line: 0, seed: seed)
            let edges = signal.press(at: 1_000 * ms, holdingFor: 200 * ms)
            let actions = decode(edges, until: 3_000 * ms)
            XCTAssertEqual(actions.map(\.action), [.press, .release, .click], "seed \(seed)")
            // The press counts 30 ms after the contact last changed while closing.
            let lastPressEdge = edges.filter { $0.timestamp < 1_100 * ms }.last!.timestamp
            XCTAssertEqual(actions[0].time, lastPressEdge + 30 * ms, "seed \(seed)")
        }
    }

    func testGlitchShorterThanTheDebounceTimeIsIgnored() {
        let signal = ButtonSignalGenerator(line: 0, seed: 1)
        XCTAssertTrue(decode(signal.glitch(at: 1_000 * ms, lasting: 29 * ms), until: 3_000 * ms).isEmpty)
        XCTAssertEqual(decode(signal.glitch(at: 1_000 * ms, lasting: 31 * ms), until: 3_000 * ms).map(\.action),
                       [.press, .release, .click])
    }

    func testHoldingFiresOneLongPressAtTheLongPressTimeAndNoClick() {
        var signal = ButtonSignalGenerator(line: 0, bounce: .none, seed: 1)
        let actions = decode(signal.press(at: 1_000 * ms, holdingFor: 3_000 * ms), until: 9_000 * ms)
        XCTAssertEqual(actions.map(\.action), [.press, .long, .release])
        XCTAssertEqual(actions[1].time, 1_800 * ms)
    }

    func testLongPressThresholdSeparatesClickFromLong() {
        var signal = ButtonSignalGenerator(line: 0, bounce: .none, seed: 1)
        XCTAssertEqual(decode(signal.press(at: 1_000 * ms, holdingFor: 790 * ms), until: 9_000 * ms).map(\.action),
                       [.press, .release, .click])
        XCTAssertEqual(decode(signal.press(at: 1_000 * ms, holdingFor: 810 * ms), until: 9_000 * ms).map(\.action),
                       [.press, .long, .release])
    }

    func testReleaseBeingDebouncedAtTheLongPressTimeDefersTheLongPress() {
        // Opens at 790 ms for 10 ms (a glitch), closed again until 2 s: a long press at 800 ms... once closed.
        let edges = [GPIOEdge(line: 0, .rising, at: 1_000 * ms), GPIOEdge(line: 0, .falling, at: 1_790 * ms),
                     GPIOEdge(line: 0, .rising, at: 1_800 * ms + 1), GPIOEdge(line: 0, .falling, at: 3_000 * ms)]
        let actions = decode(edges, until: 9_000 * ms)
        XCTAssertEqual(actions.map(\.action), [.press, .long, .release])
        XCTAssertEqual(actions[1].time, 1_800 * ms + 1)
    }

    func testAutoRepeatFiresAfterTheDelayAndAtEveryIntervalInsteadOfLong() {
        var signal = ButtonSignalGenerator(line: 0, bounce: .none, seed: 1)
        let decoder = ButtonDecoder(autoRepeat: .init(delayNanoseconds: 500 * ms, intervalNanoseconds: 150 * ms))
        let actions = decode(signal.press(at: 1_000 * ms, holdingFor: 1_000 * ms), until: 9_000 * ms, decoder)
        XCTAssertEqual(actions.map(\.action), [.press, .repeat, .repeat, .repeat, .repeat, .release])
        XCTAssertEqual(actions.filter { $0.action == .repeat }.map(\.time),
                       [1_500 * ms, 1_650 * ms, 1_800 * ms, 1_950 * ms])
        XCTAssertEqual(decode(signal.press(at: 1_000 * ms, holdingFor: 400 * ms), until: 9_000 * ms, decoder)
            .map(\.action), [.press, .release, .click])
    }

    func testButtonHeldAtStartIsNeitherAPressNorALongPress() {
        let decoder = ButtonDecoder(pressed: true, at: 0)
        let actions = decode([GPIOEdge(line: 0, .falling, at: 2_000 * ms)], until: 9_000 * ms, decoder)
        XCTAssertEqual(actions.map(\.action), [.release])
    }

    func testNextDeadlineNamesTheDebounceAndLongPressTimes() {
        var decoder = ButtonDecoder()
        XCTAssertNil(decoder.nextDeadline)
        _ = decoder.update(pressed: true, at: 1_000 * ms)
        XCTAssertEqual(decoder.nextDeadline, 1_030 * ms)
        XCTAssertEqual(decoder.advance(to: 1_030 * ms).map(\.action), [.press])
        XCTAssertEqual(decoder.nextDeadline, 1_800 * ms)
        XCTAssertEqual(decoder.advance(to: 1_800 * ms).map(\.action), [.long])
        XCTAssertNil(decoder.nextDeadline)
    }
}
