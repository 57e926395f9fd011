import Display
import XCTest

final class MarqueeTests: XCTestCase {
    private let marquee = Marquee(stepsPerSecond: 4, startPause: 1, gap: 2)

    private func window(_ text: String, width: Int, at elapsed: Double) -> String {
        String(marquee.window(Array(text), width: width, elapsed: elapsed))
    }

    func testTextThatFitsStandsStill() {
        XCTAssertEqual(window("Jazz", width: 6, at: 0), "Jazz  ")
        XCTAssertEqual(window("Jazz", width: 6, at: 100), "Jazz  ")
    }

    func testPausesAtTheStartThenStepsSteadilyAndRepeatsAfterAGap() {
        let text = "ABCDEFGH"  // 8 characters in a field of 5; cycle 10 steps of 0.25 s after a 1 s pause
        XCTAssertEqual(window(text, width: 5, at: 0), "ABCDE")
        XCTAssertEqual(window(text, width: 5, at: 0.99), "ABCDE")
        XCTAssertEqual(window(text, width: 5, at: 1.0), "ABCDE")
        XCTAssertEqual(window(text, width: 5, at: 1.25), "BCDEF")
        XCTAssertEqual(window(text, width: 5, at: 1.5), "CDEFG")
        XCTAssertEqual(window(text, width: 5, at: 2.75), "H  AB")
        XCTAssertEqual(window(text, width: 5, at: 3.25), " ABCD")
        // One period is 1 s + 10 × 0.25 s: back at the start, pausing again.
        XCTAssertEqual(window(text, width: 5, at: 3.5), "ABCDE")
        XCTAssertEqual(window(text, width: 5, at: 4.49), "ABCDE")
        XCTAssertEqual(window(text, width: 5, at: 4.75), "BCDEF")
    }

    func testStartsOnTheBeatOrHalfABeatLater() {
        XCTAssertEqual(marquee.start(at: 10, halfBeat: false), 10, accuracy: 1e-9)
        XCTAssertEqual(marquee.start(at: 10.1, halfBeat: false), 10.25, accuracy: 1e-9)
        XCTAssertEqual(marquee.start(at: 10.1, halfBeat: true), 10.125, accuracy: 1e-9)
        XCTAssertEqual(marquee.start(at: 10.2, halfBeat: true), 10.375, accuracy: 1e-9)
    }

    func testTheStartPauseIsRoundedUpToWholeSteps() {
        let slow = Marquee(stepsPerSecond: 3.5, startPause: 1.5, gap: 3)  // 5.25 steps → 6
        let text = Array("ABCDEFGHIJ")
        XCTAssertEqual(String(slow.window(text, width: 5, elapsed: 6 / 3.5 - 0.01)), "ABCDE")
        XCTAssertEqual(String(slow.window(text, width: 5, elapsed: 7 / 3.5)), "BCDEF")
    }

    func testStepsAreEvenlySpaced() {
        var changes: [Double] = []
        var last = window("Radio Bob Rockt", width: 10, at: 0)
        for tick in 1...400 {
            let time = Double(tick) / 100
            let now = window("Radio Bob Rockt", width: 10, at: time)
            if now != last { changes.append(time) }
            last = now
        }
        let gaps = zip(changes.dropFirst(), changes).map { $0 - $1 }
        XCTAssertEqual(changes.first ?? 0, 1.25, accuracy: 0.001)
        XCTAssertTrue(gaps.allSatisfy { abs($0 - 0.25) < 0.001 }, "\(gaps)")
    }

    func testNextMoveIsWhenTheWindowChangesNext() {
        XCTAssertNil(marquee.nextMove(length: 4, width: 6, elapsed: 3), "text that fits never moves")
        // 8 characters in 5 cells (the cycle above): the pause holds the window until 1.25 s.
        XCTAssertEqual(marquee.nextMove(length: 8, width: 5, elapsed: 0) ?? 0, 1.25, accuracy: 1e-9)
        XCTAssertEqual(marquee.nextMove(length: 8, width: 5, elapsed: -0.1) ?? 0, 1.25, accuracy: 1e-9)
        XCTAssertEqual(marquee.nextMove(length: 8, width: 5, elapsed: 1.25) ?? 0, 1.5, accuracy: 1e-9)
        XCTAssertEqual(marquee.nextMove(length: 8, width: 5, elapsed: 3.3) ?? 0, 3.5, accuracy: 1e-9, "the wrap to the start")
        XCTAssertEqual(marquee.nextMove(length: 8, width: 5, elapsed: 3.5) ?? 0, 4.75, accuracy: 1e-9, "then the pause again")
        // Against the window itself, over three cycles of two marquees: unchanged until the move, changed at it.
        for (marquee, text, width) in [(marquee, "ABCDEFGH", 5), (Marquee(), "Radio Bob Rockt die Nacht", 16)] {
            for tick in 0..<1200 {
                let elapsed = Double(tick) / 100
                let now = String(marquee.window(Array(text), width: width, elapsed: elapsed))
                guard let move = marquee.nextMove(length: text.count, width: width, elapsed: elapsed) else {
                    return XCTFail("\(text) scrolls")
                }
                XCTAssertGreaterThan(move, elapsed)
                XCTAssertEqual(String(marquee.window(Array(text), width: width, elapsed: move - 0.001)), now, "\(text) at \(elapsed)")
                XCTAssertNotEqual(String(marquee.window(Array(text), width: width, elapsed: move)), now, "\(text) at \(elapsed)")
            }
        }
    }
}
