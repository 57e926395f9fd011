import XCTest

@testable import Supervisor

final class KnobPaceTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func testADetentAtATimeTurnedByHandIsSlow() {
        var pace = KnobPace()
        var time: UInt64 = 1_000 * ms
        for _ in 0..<10 {
            pace.detent(1, at: time)
            XCTAssertFalse(pace.isFast(at: time))
            time += 150 * ms  // under 7 channels a second
        }
        pace.detent(-2, at: time)
        XCTAssertFalse(pace.isFast(at: time), "two channels after a pause are a small move")
    }

    func testDetentsInQuickSuccessionOrAJumpAreFastUntilTheKnobSlowsDown() {
        var pace = KnobPace()
        pace.detent(1, at: 1_000 * ms)
        pace.detent(1, at: 1_050 * ms)  // 20 channels a second
        XCTAssertTrue(pace.isFast(at: 1_050 * ms))
        XCTAssertTrue(pace.isFast(at: 1_050 * ms + KnobPace.settleNanoseconds - 1))
        XCTAssertFalse(pace.isFast(at: 1_050 * ms + KnobPace.settleNanoseconds), "slowed down: no detent for a while")

        var jump = KnobPace()
        jump.detent(30, at: 5_000 * ms)
        XCTAssertTrue(jump.isFast(at: 5_000 * ms), "an accelerated detent moves many channels at once")
        jump.detent(3, at: 5_100 * ms)
        XCTAssertTrue(jump.isFast(at: 5_100 * ms + KnobPace.settleNanoseconds / 2), "still spinning")
    }

    func testTwoDetentsAtOneInstantAndHugeJumpsNeverTrap() {
        var pace = KnobPace()
        pace.detent(1, at: 7)
        pace.detent(1, at: 7)
        XCTAssertTrue(pace.isFast(at: 7))
        pace.detent(Int.min, at: UInt64.max)
        XCTAssertTrue(pace.isFast(at: UInt64.max))
        pace.detent(1, at: 3)  // a clock that went back
        XCTAssertTrue(pace.isFast(at: 3))
    }
}
