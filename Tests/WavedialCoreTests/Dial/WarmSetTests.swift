import XCTest

@testable import WavedialCore

final class WarmSetTests: XCTestCase {
    private let band = DialBand(band: .fm, assignments: ["a": 88_100, "b": 90_100, "c": 92_100, "d": 94_100, "e": 96_100])

    func testNeighboursAreTheNearestEachSideAboveFirst() {
        XCTAssertEqual(WarmSet.neighbours(of: "c", on: band, count: 1), ["d", "b"])
        XCTAssertEqual(WarmSet.neighbours(of: "c", on: band, count: 2), ["d", "b", "e", "a"])
        XCTAssertEqual(WarmSet.neighbours(of: "a", on: band, count: 2), ["b", "c"], "no wrapping at the band's edge")
        XCTAssertEqual(WarmSet.neighbours(of: "c", on: band, count: 100), ["d", "b", "e", "a"])
        XCTAssertEqual(WarmSet.neighbours(of: "c", on: band, count: 0), [])
        XCTAssertEqual(WarmSet.neighbours(of: "c", on: band, count: -1), [])
        XCTAssertEqual(WarmSet.neighbours(of: "x", on: band, count: 1), [], "a station off the band has none")
    }

    func testTheBudgetIsKeptAndAStationOverItSkipped() {
        let candidates = [WarmSet.Candidate(stationuuid: "d", kbps: 320), .init(stationuuid: "b", kbps: 128),
                          .init(stationuuid: "e", kbps: nil), .init(stationuuid: "a", kbps: 64)]
        XCTAssertEqual(WarmSet.choose(candidates, playing: "c", budgetKbps: 256), ["b", "e"],
                       "d is over the budget alone; unknown e counts as 128; a no longer fits")
        XCTAssertEqual(WarmSet.choose(candidates, playing: "c", budgetKbps: 1000), ["d", "b", "e", "a"])
        XCTAssertEqual(WarmSet.choose(candidates, playing: "c", budgetKbps: 0), [])
        XCTAssertEqual(WarmSet.choose(candidates, playing: "b", budgetKbps: 200), ["e", "a"], "the playing station is never warmed")
    }

    func testHostileBitratesCannotOverflowTheSum() {
        let candidates = [WarmSet.Candidate(stationuuid: "a", kbps: Int.max), .init(stationuuid: "b", kbps: Int.min),
                          .init(stationuuid: "b", kbps: 1), .init(stationuuid: "c", kbps: 0)]
        XCTAssertEqual(WarmSet.choose(candidates, playing: nil, budgetKbps: Int.max), ["a", "b", "c"], "each once")
        XCTAssertEqual(WarmSet.choose(candidates, playing: nil, budgetKbps: 256), ["b", "c"], "unknown and negative count as 128")
    }
}
