import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

final class DialPersistenceTests: XCTestCase {
    private typealias F = StationFixtures
    private let berlin = Coordinate(latitude: 52.52, longitude: 13.405)

    private func settings(stations: Int) -> DialSettings {
        var settings = DialSettings()
        settings.stations = stations
        return settings
    }

    private func berlinStations(_ range: Range<Int>) -> [Station] {
        range.map { n in
            F.station(F.uuid(n), n == 3 ? "Radio Bob 101.5" : "Berlin \(n)", lat: 52.52 + Double(n) * 0.01, lon: 13.4)
        }
    }

    func testFrequenciesStayStableAcrossResyncsAndRestarts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wavedial.sqlite")
        var database = try WavedialDatabase.open(path: path)
        try database.sync(berlinStations(0..<20))
        let first = try database.nearbyBand(location: berlin, countryCode: "DE", settings: settings(stations: 10)).band
        XCTAssertEqual(first.entries.count, 10)
        XCTAssertEqual(first.frequency(of: F.uuid(3)), 101_500, "a stated frequency is used")

        // Re-sync: station 1 vanished, a new nearest one arrived, others changed names.
        var changed = berlinStations(0..<20).filter { $0.stationuuid != F.uuid(1) }
        for index in changed.indices where changed[index].stationuuid != F.uuid(3) { changed[index].name += " (new name)" }
        changed.append(F.station("newcomer", "Newcomer", lat: 52.52, lon: 13.405))
        try database.sync(changed)
        database = try WavedialDatabase.open(path: path)  // a restart
        let second = try database.nearbyBand(location: berlin, countryCode: "DE", settings: settings(stations: 10)).band
        XCTAssertEqual(second.entries.count, 10)
        for entry in first.entries where entry.stationuuid != F.uuid(1) && second.frequency(of: entry.stationuuid) != nil {
            XCTAssertEqual(second.frequency(of: entry.stationuuid), entry.kHz, "stations that stay keep their frequency")
        }
        XCTAssertNil(second.frequency(of: F.uuid(1)))
        XCTAssertNotNil(second.frequency(of: "newcomer"))
        let kept = first.entries.filter { second.frequency(of: $0.stationuuid) != nil }
        XCTAssertEqual(kept.count, 9, "all but the vanished one are still in the nearest ten")
    }

    /// Reads do not write: planning a band (what `wavedial dial` and `fav list` do) stores nothing;
    /// storing the plan (the daemon's) does, once.
    func testPlanningReadsAndOnlyStoringWrites() throws {
        let database = try WavedialDatabase.inMemory()
        try database.sync(berlinStations(0..<10))
        let changes = { try database.writer.read { try Int.fetchOne($0, sql: "SELECT total_changes()") ?? 0 } }
        let storedRows = { try database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM dialAssignment") ?? 0 } }
        let before = try changes()
        let (plan, stations) = try database.planNearbyBand(location: berlin, countryCode: "DE", settings: settings(stations: 5))
        XCTAssertEqual(plan.band.entries.count, 5)
        XCTAssertEqual(stations.count, 5)
        XCTAssertFalse(plan.isStored)
        XCTAssertEqual(try storedRows(), 0, "planning stored nothing")
        XCTAssertEqual(try changes(), before)

        try database.storeDialPlan(plan)
        XCTAssertEqual(try storedRows(), 5)
        let again = try database.planNearbyBand(location: berlin, countryCode: "DE", settings: settings(stations: 5)).plan
        XCTAssertTrue(again.isStored)
        XCTAssertEqual(again.band, plan.band, "the stored plan is what planning again finds")
        let stored = try changes()
        try database.storeDialPlan(again)
        XCTAssertEqual(try changes(), stored, "a plan already stored writes nothing")

        _ = try database.addFavorite(berlinStations(0..<1)[0])
        let favorites = try database.planFavoritesBand(.fm)
        XCTAssertFalse(favorites.plan.isStored)
        XCTAssertEqual(favorites.favorites.count, 1)
        XCTAssertEqual(try storedRows(), 5, "planning the favorites band stored nothing")
        try database.storeDialPlan(favorites.plan)
        XCTAssertTrue(try database.planFavoritesBand(.fm).plan.isStored)
        XCTAssertEqual(try storedRows(), 6)
    }

    func testALocationChangeRebuildsTheBand() throws {
        let database = try WavedialDatabase.inMemory()
        let paris = (0..<10).map { F.station("p\($0)", "Paris \($0)", lat: 48.85 + Double($0) * 0.01, lon: 2.35, country: "FR") }
        try database.sync(berlinStations(0..<10) + paris)
        let berlinBand = try database.nearbyBand(location: berlin, countryCode: "DE", settings: settings(stations: 5)).band
        XCTAssertTrue(berlinBand.entries.allSatisfy { !$0.stationuuid.hasPrefix("p") })
        let parisBand = try database.nearbyBand(location: Coordinate(latitude: 48.85, longitude: 2.35), countryCode: "FR",
                                                settings: settings(stations: 5)).band
        XCTAssertEqual(Set(parisBand.entries.map(\.stationuuid)), Set((0..<5).map { "p\($0)" }))
        // The Paris band is planned afresh: the same as planning it on an empty dial.
        let fresh = FrequencyPlan(band: .fm, candidates: (0..<5).map { .init(stationuuid: "p\($0)") })
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: parisBand.entries.map { ($0.stationuuid, $0.kHz) }), fresh.assignments)
    }

    func testFavoritesBandUsesSnapshotsAndKeepsFrequencies() throws {
        let database = try WavedialDatabase.inMemory()
        let stations = berlinStations(0..<5)
        try database.sync(stations)
        try database.addFavorite(stations[3])
        try database.addFavorite(stations[0])
        let (band, favorites) = try database.favoritesBand(.fm)
        XCTAssertEqual(favorites.count, 2)
        XCTAssertEqual(band.frequency(of: F.uuid(3)), 101_500)
        let zeroAt = band.frequency(of: F.uuid(0))
        try database.sync([stations[1]])  // both favorites vanish upstream
        try database.addFavorite(stations[1])
        let (after, _) = try database.favoritesBand(.fm)
        XCTAssertEqual(after.entries.count, 3)
        XCTAssertEqual(after.frequency(of: F.uuid(0)), zeroAt)
        XCTAssertEqual(after.frequency(of: F.uuid(3)), 101_500)
        try database.removeFavorite(F.uuid(3))
        XCTAssertNil(try database.favoritesBand(.fm).band.frequency(of: F.uuid(3)))
    }
}
