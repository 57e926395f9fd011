import Hardware
import WavedialTestSupport
import XCTest

final class QuadratureDecoderTests: XCTestCase {
    private let forwards: [(Bool, Bool)] = [(false, false), (true, false), (true, true), (false, true)]

    func testTransitionTableCountsGrayCodeStepsAndIgnoresStandingStill() {
        for from in 0..<4 {
            for to in 0..<4 {
                var decoder = QuadratureDecoder(a: forwards[from].0, b: forwards[from].1, stepsPerDetent: .one,
                                                settleNanoseconds: 0, at: 0)
                _ = decoder.update(a: forwards[to].0, b: forwards[to].1, at: 10)
                let expected: Int
                switch (to - from + 4) % 4 {
                case 0: expected = 0
                case 1: expected = 1
                case 3: expected = -1
                default: expected = 2  // both contacts changed: guessed forwards, two quarter steps
                }
                XCTAssertEqual(decoder.advance(to: 10), expected, "state \(from) -> \(to)")
            }
        }
    }

    func testFourStepDetentIsReportedWhenTheContactsReachTheRestState() {
        var decoder = QuadratureDecoder(a: true, b: true, stepsPerDetent: .four)
        // From 11 forwards: 01, 00, 10, 11.
        XCTAssertEqual(decoder.update(a: false, b: true, at: 1), 0)
        XCTAssertEqual(decoder.update(a: false, b: false, at: 2), 0)
        XCTAssertEqual(decoder.update(a: true, b: false, at: 3), 0)
        XCTAssertEqual(decoder.update(a: true, b: true, at: 4), 1)
        // And back again.
        XCTAssertEqual(decoder.update(a: true, b: false, at: 5), 0)
        XCTAssertEqual(decoder.update(a: false, b: false, at: 6), 0)
        XCTAssertEqual(decoder.update(a: false, b: true, at: 7), 0)
        XCTAssertEqual(decoder.update(a: true, b: true, at: 8), -1)
    }

    func testTwoStepDetentsSitAtBothRestStates() {
        var decoder = QuadratureDecoder(a: false, b: false, stepsPerDetent: .two)
        XCTAssertEqual(decoder.update(a: true, b: false, at: 1), 0)
        XCTAssertEqual(decoder.update(a: true, b: true, at: 2), 1)
        XCTAssertEqual(decoder.update(a: false, b: true, at: 3), 0)
        XCTAssertEqual(decoder.update(a: false, b: false, at: 4), 1)
    }

    func testBounceOnTheLastEdgeOfADetentNeitherDoublesNorReversesIt() {
        for steps in [QuadratureDecoder.StepsPerDetent.two, .four] {
            var decoder = QuadratureDecoder(a: false, b: false, stepsPerDetent: steps)
            var total = 0
            // Walk forwards to one quarter step before the detent.
            var state = 0
            for _ in 0..<(steps.rawValue - 1) {
                state += 1
                total += decoder.update(a: forwards[state].0, b: forwards[state].1, at: UInt64(state))
            }
            // The last edge chatters between the two states ten times, ending on the detent.
            let before = forwards[state], detent = forwards[(state + 1) % 4]
            for chatter in 0..<21 {
                let levels = chatter % 2 == 0 ? detent : before
                let delta = decoder.update(a: levels.0, b: levels.1, at: UInt64(10 + chatter))
                XCTAssertGreaterThanOrEqual(delta, 0, "a reversal while bouncing, \(steps)")
                total += delta
            }
            XCTAssertEqual(total, 1, "\(steps)")
        }
    }

    func testOneStepDetentCountsOnlyAfterTheContactsSettle() {
        var decoder = QuadratureDecoder(a: false, b: false, stepsPerDetent: .one, settleNanoseconds: 3_000)
        // 00 → 10 bouncing: 10, 00, 10, 00, 10 within 2 µs.
        for (index, a) in [true, false, true, false, true].enumerated() {
            XCTAssertEqual(decoder.update(a: a, b: false, at: 1_000 + UInt64(index) * 500), 0)
        }
        XCTAssertEqual(decoder.nextDeadline, 3_000 + 3_000)
        XCTAssertEqual(decoder.advance(to: 5_999), 0)
        XCTAssertEqual(decoder.advance(to: 6_000), 1)
        XCTAssertNil(decoder.nextDeadline)
        XCTAssertEqual(decoder.advance(to: 1_000_000), 0)
    }

    func testInvertedDecoderCountsTheOtherWay() {
        var decoder = QuadratureDecoder(a: false, b: false, stepsPerDetent: .four, inverted: true)
        var total = 0
        for state in [1, 2, 3, 0] {
            total += decoder.update(a: forwards[state].0, b: forwards[state].1, at: UInt64(state + 1))
        }
        XCTAssertEqual(total, -1)
    }

    func testMissingIntermediateStateContinuesTheDirectionOfTravel() {
        // Backwards from 00: 01, then 01 → 10 skips 11; two more quarter steps backwards would be 00.
        var decoder = QuadratureDecoder(a: false, b: false, stepsPerDetent: .four)
        XCTAssertEqual(decoder.update(a: false, b: true, at: 1), 0)
        XCTAssertEqual(decoder.update(a: true, b: false, at: 2), 0)
        XCTAssertEqual(decoder.update(a: false, b: false, at: 3), -1)
    }

    func testDetentsStayInPhaseWithTheContactsWhateverTheyDo() {
        // Any sequence of states, including impossible jumps and simultaneous changes: a 4-step
        // decoder reports at most one detent a change, and never half a detent away from the rest
        // state (where both contacts are opposite to it).
        var random = SeededRandom(seed: 42)
        for restLevel in [false, true] {
            var decoder = QuadratureDecoder(a: restLevel, b: restLevel, stepsPerDetent: .four)
            for time in 1...20_000 {
                let a = Bool.random(using: &random), b = Bool.random(using: &random)
                // Every other pair of changes shares a timestamp, as simultaneous edges do.
                let detents = decoder.update(a: a, b: b, at: UInt64(time / 2))
                XCTAssertLessThanOrEqual(abs(detents), 1, "at \(time)")
                if detents != 0 {
                    XCTAssertFalse(a != restLevel && b != restLevel, "detent half a detent off at \(time)")
                }
            }
        }
    }
}
