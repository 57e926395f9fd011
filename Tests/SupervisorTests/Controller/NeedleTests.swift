import WavedialCore
import XCTest

@testable import Supervisor

final class NeedleTests: XCTestCase {
    private let band = Band.fm
    private let dial = DialBand(band: .fm, assignments: ["low": 94_000, "high": 94_400])
    private let rest: UInt64 = 400_000_000

    func testSnapsOnlyAfterTheKnobRests() {
        var needle = Needle(kHz: 90_000)
        needle.turn(41, on: band, at: 1_000_000_000)
        XCTAssertEqual(needle.kHz, 94_100)
        XCTAssertNil(needle.snapIfRested(on: dial, at: 1_399_999_999, rest: rest))
        XCTAssertTrue(needle.isTurning)
        needle.turn(1, on: band, at: 1_300_000_000)  // another detent restarts the wait
        XCTAssertNil(needle.snapIfRested(on: dial, at: 1_600_000_000, rest: rest))
        let snapped = needle.snapIfRested(on: dial, at: 1_700_000_000, rest: rest)
        XCTAssertEqual(snapped?.stationuuid, "high", "94.2 is nearer 94.0 and 94.4 alike: the direction of travel (up) wins")
        XCTAssertEqual(needle.kHz, 94_400)
        XCTAssertFalse(needle.isTurning)
        XCTAssertNil(needle.snapIfRested(on: dial, at: 9_000_000_000, rest: rest), "one snap per turn")
    }

    func testTurningDownTiesGoDown() {
        var needle = Needle(kHz: 94_400)
        needle.turn(-2, on: band, at: 1)
        XCTAssertEqual(needle.snapIfRested(on: dial, at: rest + 1, rest: rest)?.stationuuid, "low")
    }

    func testStopsAtTheBandsEnds() {
        var needle = Needle(kHz: 107_800)
        needle.turn(50, on: band, at: 1)
        XCTAssertEqual(needle.kHz, 108_000)
        needle.turn(-1000, on: band, at: 2)
        XCTAssertEqual(needle.kHz, 87_500)
    }

    func testAnEmptyBandEndsTheTurnWithoutAStation() {
        var needle = Needle(kHz: 100_000)
        needle.turn(1, on: band, at: 1)
        XCTAssertNil(needle.snapIfRested(on: DialBand(band: band, assignments: [:]), at: rest + 1, rest: rest))
        XCTAssertFalse(needle.isTurning)
    }
}
