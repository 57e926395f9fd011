import XCTest

@testable import WavedialCore

final class FrequencyPlanTests: XCTestCase {
    private let band = Band.fm

    func testStatedFrequenciesAreHonoured() {
        let plan = FrequencyPlan(band: band, candidates: [
            .init(stationuuid: "a", statedKHz: 101_500),
            .init(stationuuid: "b", statedKHz: 94_100),
        ])
        XCTAssertEqual(plan.assignments, ["a": 101_500, "b": 94_100])
    }

    func testOthersGetADeterministicSlotFromTheirUUID() {
        let candidates = (0..<40).map { FrequencyPlan.Candidate(stationuuid: "uuid-\($0)") }
        let first = FrequencyPlan(band: band, candidates: candidates)
        let again = FrequencyPlan(band: band, candidates: candidates)
        XCTAssertEqual(first, again)
        XCTAssertEqual(Set(first.assignments.values).count, 40, "no two stations share a frequency")
        XCTAssertTrue(first.assignments.values.allSatisfy(band.isChannel))
        let slot = FrequencyPlan.hashSlot("uuid-0", slotCount: band.slotCount)
        let lone = FrequencyPlan(band: band, candidates: [.init(stationuuid: "uuid-0")])
        XCTAssertEqual(lone.assignments["uuid-0"], band.frequency(ofSlot: slot))
        XCTAssertEqual(FrequencyPlan.hashSlot("UUID-0", slotCount: 100), FrequencyPlan.hashSlot("uuid-0", slotCount: 100))
    }

    func testCollisionsMoveToTheNearestFreeSlot() {
        let plan = FrequencyPlan(band: band, candidates: [
            .init(stationuuid: "a", statedKHz: 99_000),
            .init(stationuuid: "b", statedKHz: 99_000),
            .init(stationuuid: "c", statedKHz: 99_000),
            .init(stationuuid: "d", statedKHz: 108_000),
            .init(stationuuid: "e", statedKHz: 108_000),
        ])
        XCTAssertEqual(plan.assignments["a"], 99_000)
        XCTAssertEqual(plan.assignments["b"], 99_100, "ties go up")
        XCTAssertEqual(plan.assignments["c"], 98_900)
        XCTAssertEqual(plan.assignments["d"], 108_000)
        XCTAssertEqual(plan.assignments["e"], 107_900, "the band's end pushes down")
    }

    func testStatedFrequenciesWinOverHashedSlots() {
        let hashed = "zz-hash"
        let slot = band.frequency(ofSlot: FrequencyPlan.hashSlot(hashed, slotCount: band.slotCount))
        // The hashed station comes first (nearer), but the one naming that frequency gets it.
        let plan = FrequencyPlan(band: band, candidates: [.init(stationuuid: hashed), .init(stationuuid: "named", statedKHz: slot)])
        XCTAssertEqual(plan.assignments["named"], slot)
        XCTAssertNotEqual(plan.assignments[hashed], slot)
    }

    func testPreviousAssignmentsAreKept() {
        let previous = ["a": 90_000, "b": 100_000, "gone": 95_000]
        let plan = FrequencyPlan(band: band, candidates: [
            .init(stationuuid: "a", statedKHz: 101_500),  // keeps 90.0 although it now states 101.5
            .init(stationuuid: "b"),
            .init(stationuuid: "new", statedKHz: 90_000),  // 90.0 is taken: nearest free
        ], previous: previous)
        XCTAssertEqual(plan.assignments["a"], 90_000)
        XCTAssertEqual(plan.assignments["b"], 100_000)
        XCTAssertEqual(plan.assignments["new"], 90_100)
        XCTAssertNil(plan.assignments["gone"], "stations that left the set free their slot")
    }

    func testPreviousAssignmentsOffTheGridAreReplanned() {
        let plan = FrequencyPlan(band: band, candidates: [.init(stationuuid: "a", statedKHz: 94_100)],
                                 previous: ["a": 94_150])
        XCTAssertEqual(plan.assignments["a"], 94_100)
    }

    func testAFullBandLeavesTheRestOff() {
        let tiny = Band(startKHz: 100_000, endKHz: 100_200, stepKHz: 100)!
        let plan = FrequencyPlan(band: tiny, candidates: (0..<5).map { .init(stationuuid: "s\($0)") })
        XCTAssertEqual(plan.assignments.count, 3)
        XCTAssertEqual(Set(plan.assignments.values), [100_000, 100_100, 100_200])
    }
}
