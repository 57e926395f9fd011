import Foundation
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// `stationLoudness`: one row a station, the newest kept, nothing that is no measurement, bounded in size.
final class StationLoudnessStoreTests: XCTestCase {
    private func measurement(_ station: String, _ lufs: Double, at seconds: Double = 0) -> StationLoudness {
        StationLoudness(stationuuid: station, loudnessLUFS: lufs, measuredAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    func testTheNewestMeasurementReplacesTheOneBefore() throws {
        let database = try WavedialDatabase.inMemory()
        XCTAssertNil(try database.loudness(of: "a"))
        try database.recordLoudness([measurement("a", -20), measurement("b", -14.25)])
        try database.recordLoudness([measurement("a", -22.5, at: 60)])
        XCTAssertEqual(try database.loudness(of: "a"), measurement("a", -22.5, at: 60))
        XCTAssertEqual(try database.allStationLoudness().count, 2)
    }

    func testWhatIsNoMeasurementIsLeftOut() throws {
        let database = try WavedialDatabase.inMemory()
        try database.recordLoudness([measurement("a", .nan), measurement("b", -.infinity), measurement("c", .infinity),
                                     measurement("d", -90), measurement("e", 7), measurement("f", -16)])
        XCTAssertEqual(try database.allStationLoudness().map(\.stationuuid), ["f"])
    }

    func testOnlyTheMostRecentlyMeasuredStationsAreKept() throws {
        let database = try WavedialDatabase.inMemory()
        let limit = WavedialDatabase.stationLoudnessLimit
        try database.recordLoudness((0..<(limit + 10)).map { measurement("s\($0)", -20, at: Double($0)) })
        let kept = Set(try database.allStationLoudness().map(\.stationuuid))
        XCTAssertEqual(kept.count, limit)
        XCTAssertFalse(kept.contains("s0"))
        XCTAssertTrue(kept.contains("s\(limit + 9)"))
    }
}
