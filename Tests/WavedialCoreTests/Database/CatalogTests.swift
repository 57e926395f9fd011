import WavedialTestSupport
import XCTest

@testable import WavedialCore

final class CatalogTests: XCTestCase {
    private typealias F = StationFixtures

    func testPlayability() {
        XCTAssertTrue(F.station("a", "A", codec: "MP3").isPlayable)
        XCTAssertTrue(F.station("a", "A", codec: "").isPlayable)
        XCTAssertTrue(F.station("a", "A", codec: "UNKNOWN").isPlayable)
        XCTAssertTrue(F.station("a", "A", codec: "mp3").isPlayable)
        XCTAssertFalse(F.station("a", "A", codec: "AAC").isPlayable)
        XCTAssertFalse(F.station("a", "A", codec: "AAC+").isPlayable)
        XCTAssertFalse(F.station("a", "A", codec: "OGG").isPlayable)
        XCTAssertFalse(F.station("a", "A", codec: "MP3", hls: true).isPlayable)
        XCTAssertFalse(F.station("a", "A", codec: "MP3", ok: false).isPlayable)
    }

    func testImportCountsAndResyncChanges() throws {
        let database = try WavedialDatabase.inMemory(with: [
            F.station("a", "Alpha", lat: 52, lon: 13), F.station("b", "Beta", lat: 48, lon: 2, codec: "AAC"),
            F.station("c", "Gamma"),
        ])
        XCTAssertEqual(try database.stationCount(), 3)
        var changed = F.station("a", "Alpha Radio", lat: 52, lon: 13)
        changed.votes = 7
        let staging = try CatalogImport(database: database)
        try staging.add(changed)
        try staging.add(F.station("b", "Beta", lat: 48, lon: 2, codec: "AAC"))
        try staging.add(F.station("d", "Delta"))
        try staging.add(F.station("d", "Delta (duplicate uuid, later wins)"))
        staging.skip()
        let summary = try staging.commit(server: "http://mirror", at: Date(timeIntervalSince1970: 1_000))
        XCTAssertEqual(summary.total, 3)
        XCTAssertEqual(summary.added, 1)
        XCTAssertEqual(summary.updated, 1)
        XCTAssertEqual(summary.removed, 1)
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertEqual(summary.playable, 2)
        XCTAssertEqual(try database.station(uuid: "a")?.name, "Alpha Radio")
        XCTAssertEqual(try database.station(uuid: "d")?.name, "Delta (duplicate uuid, later wins)")
        XCTAssertNil(try database.station(uuid: "c"))
        XCTAssertEqual(try database.lastSync(), summary)
    }

    func testAnEmptyOrDiscardedImportKeepsTheCatalog() throws {
        let database = try WavedialDatabase.inMemory(with: [F.station("a", "Alpha")])
        let lastSync = try database.lastSync()
        let empty = try CatalogImport(database: database)
        empty.skip()
        XCTAssertThrowsError(try empty.commit(server: "x")) { error in
            XCTAssertEqual(error as? CatalogImportError, .empty(skipped: 1))
        }
        let broken = try CatalogImport(database: database)
        for n in 0..<1200 { try broken.add(F.station(F.uuid(n), "Half \(n)")) }  // more than a staging batch
        try broken.discard()
        XCTAssertEqual(try database.stationCount(), 1)
        XCTAssertEqual(try database.station(uuid: "a")?.name, "Alpha")
        XCTAssertEqual(try database.lastSync(), lastSync)
    }

    func testFavoritesSurviveTheirStationVanishing() throws {
        let alpha = F.station("a", "Alpha", lat: 52, lon: 13)
        let database = try WavedialDatabase.inMemory(with: [alpha, F.station("b", "Beta")])
        XCTAssertTrue(try database.addFavorite(alpha))
        XCTAssertFalse(try database.addFavorite(alpha), "adding twice keeps one")
        var renamed = alpha
        renamed.name = "Alpha Renamed"
        let resync = try CatalogImport(database: database)
        try resync.add(renamed)
        _ = try resync.commit(server: "x")
        XCTAssertEqual(try database.favorites().first?.snapshot.name, "Alpha Renamed", "snapshots follow the catalog")
        let vanish = try CatalogImport(database: database)
        try vanish.add(F.station("b", "Beta"))
        _ = try vanish.commit(server: "x")
        XCTAssertNil(try database.station(uuid: "a"))
        let favorites = try database.favorites()
        XCTAssertEqual(favorites.map(\.stationuuid), ["a"])
        XCTAssertEqual(favorites[0].snapshot.name, "Alpha Renamed")
        XCTAssertEqual(favorites[0].snapshot.url, alpha.url)
    }

    func testFavoritesOrderAddRemoveMoveToggleImport() throws {
        let stations = (0..<4).map { F.station("s\($0)", "Station \($0)") }
        let database = try WavedialDatabase.inMemory(with: stations)
        for station in stations { try database.addFavorite(station) }
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s0", "s1", "s2", "s3"])
        XCTAssertEqual(try database.moveFavorite("s3", to: 1), 1)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s3", "s0", "s1", "s2"])
        XCTAssertEqual(try database.moveFavorite("s3", to: 99), 4, "positions are clamped")
        XCTAssertNil(try database.moveFavorite("nope", to: 1))
        XCTAssertTrue(try database.removeFavorite("s1"))
        XCTAssertFalse(try database.removeFavorite("s1"))
        XCTAssertEqual(try database.favorites().map(\.position), [1, 2, 3])
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s0", "s2", "s3"])
        XCTAssertFalse(try database.toggleFavorite(stations[0]))
        XCTAssertTrue(try database.toggleFavorite(stations[0]))
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s2", "s3", "s0"])
        XCTAssertEqual(try database.importFavorites([stations[1], stations[2]]), 1)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s2", "s3", "s0", "s1"])
    }

    func testHistoryIsNewestFirstAndBounded() throws {
        let database = try WavedialDatabase.inMemory()
        let station = F.station("a", "Alpha")
        for n in 0..<(WavedialDatabase.historyLimit + 5) {
            try database.recordSong("Song \(n)", on: station, at: Date(timeIntervalSince1970: Double(n)))
        }
        try database.recordPlay(of: station)
        let songs = try database.songHistory(limit: 5000)
        XCTAssertEqual(songs.count, WavedialDatabase.historyLimit)
        XCTAssertEqual(songs.first?.title, "Song \(WavedialDatabase.historyLimit + 4)")
        XCTAssertEqual(try database.playHistory().map(\.name), ["Alpha"])
    }

    func testDataSurvivesReopeningTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db/wavedial.sqlite")
        do {
            let database = try WavedialDatabase.open(path: path)
            try database.addFavorite(F.station("a", "Alpha"))
            try database.setLocation(Coordinate(latitude: 1, longitude: 2))
        }
        let reopened = try WavedialDatabase.open(path: path)
        XCTAssertEqual(try reopened.favorites().map(\.stationuuid), ["a"])
        XCTAssertEqual(try reopened.storedLocation(), Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(try reopened.integrityProblems(), [])
    }

    func testOpeningSomethingThatIsNotADatabaseFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("garbage.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try WavedialDatabase.open(path: path))
    }
}
