import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

final class CatalogTests: XCTestCase {
    private typealias F = StationFixtures

    func testPlayability() {
        for codec in ["MP3", "mp3", "", "UNKNOWN", "unknown", "AAC", "AAC+", "aac+", "OGG", "OPUS", "Vorbis", "FLAC",
                      "AAC,H.264", "MP3, H.264", "UNKNOWN,AAC"] {
            XCTAssertNil(F.station("a", "A", codec: codec).unplayableReason, codec)
            XCTAssertTrue(F.station("a", "A", codec: codec, hls: true).isPlayable, "HLS \(codec)")
        }
        let refused: [(codec: String, hls: Bool, reason: String)] = [
            ("WMA", false, "Format not supported (WMA)"), ("wma", true, "Format not supported (WMA)"),
            ("H.264", true, "Format not supported (H.264 video)"),
            ("UNKNOWN,H.264", true, "Format not supported (H.264 video)"),
            ("unknown, hevc", false, "Format not supported (HEVC video)"),
            ("WMA,H.264", true, "Format not supported (WMA)"),
        ]
        for (codec, hls, reason) in refused {
            let station = F.station("a", "A", codec: codec, hls: hls)
            XCTAssertFalse(station.isPlayable, codec)
            XCTAssertEqual(station.unplayableReason?.description, reason, codec)
        }
        XCTAssertEqual(F.station("a", "A", codec: "MP3", ok: false).unplayableReason, .failedLastCheck)
        for (url, name) in [("rtmp://live.example/app/stream", "RTMP"), ("MMS://wm.example/radio", "MMS"),
                            ("mmsh://wm.example/radio", "MMS"), ("rtsp://cam.example/audio", "RTSP")] {
            var station = F.station("a", "A", codec: "MP3")
            station.url = url
            XCTAssertEqual(station.unplayableReason, .formatNotSupported(name), url)
            station.urlResolved = "http://resolved.example/stream"
            XCTAssertTrue(station.isPlayable, "the resolved URL is what plays: \(url)")
            station.url = "http://example/listen.pls"
            station.urlResolved = url
            XCTAssertFalse(station.isPlayable, "resolved to \(url)")
        }
    }

    func testImportCountsAndResyncChanges() throws {
        let database = try WavedialDatabase.inMemory(with: [
            F.station("a", "Alpha", lat: 52, lon: 13), F.station("b", "Beta", lat: 48, lon: 2, codec: "WMA"),
            F.station("c", "Gamma"),
        ])
        XCTAssertEqual(try database.stationCount(), 3)
        var changed = F.station("a", "Alpha Radio", lat: 52, lon: 13)
        changed.votes = 7
        let staging = try CatalogImport(database: database)
        try staging.add(changed)
        try staging.add(F.station("b", "Beta", lat: 48, lon: 2, codec: "WMA"))
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

    /// A re-sync writes only what changed; the geo index must still hold exactly the playable
    /// stations with a position, where they are now.
    func testResyncKeepsTheGeoIndexInStepWithTheStations() throws {
        let first = (0..<5000).map { n in F.station(F.uuid(n), "Station \(n)", lat: Double(n % 90), lon: Double(n % 180)) }
        let database = try WavedialDatabase.inMemory(with: first)
        var second = first
        second[1].geoLat = -33.9                                  // moved
        second[2].codec = "WMA"                                   // no longer playable
        second[3].geoLat = nil                                    // lost its position
        second[4].name = "Renamed"                                // changed, same place
        second.remove(at: 5)                                      // vanished
        second.append(F.station("new", "New", lat: 10, lon: 20))  // added
        var lost = first[6]
        lost.geoLat = nil
        lost.geoLong = nil
        let database2 = try WavedialDatabase.inMemory(with: first.enumerated().map { $0.offset == 6 ? lost : $0.element })
        var regained = lost
        regained.geoLat = 1
        regained.geoLong = 2
        for (db, stations) in [(database, second), (database2, first.enumerated().map { $0.offset == 6 ? regained : $0.element })] {
            let staging = try CatalogImport(database: db)
            for station in stations { try staging.add(station) }
            _ = try staging.commit(server: "http://mirror")
            // The R*Tree keeps 32-bit floats, rounded outwards: positions are compared to 1e-4°.
            let (indexed, expected) = try db.writer.read { db in
                (try Row.fetchAll(db, sql: "SELECT id, minLat, minLon FROM stationGeo ORDER BY id"),
                 try Row.fetchAll(db, sql: """
                    SELECT id, geo_lat, geo_long FROM station WHERE playable AND geo_lat BETWEEN -90 AND 90
                    AND geo_long BETWEEN -180 AND 180 AND NOT (geo_lat = 0 AND geo_long = 0) ORDER BY id
                    """))
            }
            XCTAssertEqual(indexed.map { $0[0] as Int64 }, expected.map { $0[0] as Int64 })
            for (entry, station) in zip(indexed, expected) {
                XCTAssertEqual(entry[1] as Double, station[1] as Double, accuracy: 1e-4)
                XCTAssertEqual(entry[2] as Double, station[2] as Double, accuracy: 1e-4)
            }
        }
        XCTAssertEqual(try database.stationCount(), 5000)
        func nearest(_ db: WavedialDatabase, _ latitude: Double, _ longitude: Double) throws -> String? {
            try db.nearby(Coordinate(latitude: latitude, longitude: longitude), countryCode: nil, limit: 1, radiusKm: 250)
                .first?.station.stationuuid
        }
        XCTAssertEqual(try nearest(database, -33.9, 1), F.uuid(1))
        XCTAssertEqual(try nearest(database2, 1, 2), F.uuid(6))
    }

    /// A sync that writes most of the catalog drops the station table's indexes and builds
    /// them again: they must all be back, as the migrations made them.
    func testASyncThatRebuildsTheIndexesLeavesThemAsTheyWere() throws {
        let database = try WavedialDatabase.inMemory()
        func indexes() throws -> [String] {
            try database.writer.read { db in
                try String.fetchAll(db, sql: "SELECT name || ': ' || ifnull(sql, 'automatic') FROM sqlite_master WHERE type = 'index' AND tbl_name = 'station' ORDER BY name")
            }
        }
        let migrated = try indexes()
        XCTAssertGreaterThanOrEqual(migrated.count, 4)  // the stationuuid constraint's and three of our own
        try database.sync((0..<100).map { F.station(F.uuid($0), "Station \($0)") })
        XCTAssertEqual(try indexes(), migrated)
        try database.sync((50..<300).map { F.station(F.uuid($0), "Station \($0)") })  // most rows new again
        XCTAssertEqual(try indexes(), migrated)
        XCTAssertEqual(try database.stationCount(), 250)
        XCTAssertEqual(try database.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }, ["ok"])
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
        for n in 0..<4500 { try broken.add(F.station(F.uuid(n), "Half \(n)")) }  // more than two staging batches
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
        XCTAssertTrue(try database.removeFavorite("s0"))
        XCTAssertTrue(try database.addFavorite(stations[0]), "added again: at the end")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s2", "s3", "s0"])
        XCTAssertEqual(try database.importFavorites([.station(stations[1]), .station(stations[2])]), 1)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), ["s2", "s3", "s0", "s1"])
    }

    /// The newest 1,000 entries are kept; older ones go 100 at a time, not one with every write.
    func testHistoryIsNewestFirstAndBounded() throws {
        let database = try WavedialDatabase.inMemory()
        let station = F.station("a", "Alpha")
        let limit = WavedialDatabase.historyLimit, slack = WavedialDatabase.historyPruneSlack
        for n in 0..<(limit + slack) {
            try database.recordSong("Song \(n)", on: station, at: Date(timeIntervalSince1970: Double(n)))
        }
        XCTAssertEqual(try database.songHistory(limit: 5000).count, limit + slack, "not pruned yet")
        try database.recordSongs((0..<5).map {
            SongHistoryEntry(stationuuid: "a", stationName: "Alpha", title: "Batch \($0)", heardAt: Date(timeIntervalSince1970: 1e6))
        })
        let songs = try database.songHistory(limit: 5000)
        XCTAssertEqual(songs.count, limit, "past the slack: pruned to the newest \(limit)")
        XCTAssertEqual(songs.first?.title, "Batch 4")
        XCTAssertEqual(songs.last?.title, "Song \(slack + 5)")
        for _ in 0..<(limit + slack + 1) { try database.recordPlay(of: station) }
        XCTAssertEqual(try database.playHistory(limit: 5000).count, limit)
        XCTAssertEqual(try database.playHistory().first?.name, "Alpha")
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
