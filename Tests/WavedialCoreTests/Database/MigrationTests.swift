import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// Databases written by an earlier wavedial open, upgrade and keep working.
final class MigrationTests: XCTestCase {
    private typealias F = StationFixtures

    /// v1 keyed the full-text rows by station id; v2 numbers them by popularity and searches the
    /// country code there too. A v1 catalog must be searchable at once after the upgrade, before any sync.
    func testAVersion1CatalogIsSearchableAfterTheUpgrade() throws {
        let queue = try DatabaseQueue(configuration: WavedialDatabase.makeConfiguration())
        try WavedialDatabase.migrator.migrate(queue, upTo: "v1")
        let stations = [
            F.station(F.uuid(1), "Radio Eins", country: "DE", votes: 5),
            F.station(F.uuid(2), "Radio Zwei", country: "DE", votes: 50),
            F.station(F.uuid(3), "Radio Vaticana", country: "VA", votes: 1),
            F.station(F.uuid(4), "Radio WMA", country: "DE", codec: "WMA", votes: 900),
            F.station(F.uuid(5), "Jazz FM", country: "GB", votes: 7),
        ]
        try queue.write { db in
            let placeholders = Array(repeating: "?", count: Station.databaseColumns.count).joined(separator: ",")
            for station in stations {
                try db.execute(sql: "INSERT INTO station (\(Station.databaseColumns.joined(separator: ","))) VALUES (\(placeholders))",
                               arguments: StatementArguments(station.databaseValues))
            }
            try db.execute(sql: """
                INSERT INTO stationSearch(rowid, name, tags, country, language) SELECT id, name, tags, country, language FROM station
                """)
        }
        let database = try WavedialDatabase(writer: queue)
        func names(_ query: StationQuery) throws -> [String] { try database.search(query).map(\.name) }
        XCTAssertEqual(try names(.init(text: "radio")), ["Radio Zwei", "Radio Eins", "Radio Vaticana", "Radio WMA"])
        XCTAssertEqual(try names(.init(text: "radio", country: "va")), ["Radio Vaticana"])
        XCTAssertEqual(try names(.init(country: "DE", limit: 2)), ["Radio Zwei", "Radio Eins"])
        XCTAssertEqual(try database.station(uuid: F.uuid(5))?.name, "Jazz FM")
    }

    /// v3: AAC, Ogg, FLAC and HLS with audio play now. A catalog synced under the old rule (MP3 or
    /// unknown, never HLS) must offer them at once after the upgrade, before any sync: `playable`,
    /// the geo index and the search's popularity order are re-derived; favorites and the dial are kept,
    /// and the next nearby band takes the newly playable stations in beside the frequencies it had.
    func testAVersion2CatalogPlaysEveryFormatAfterTheUpgrade() throws {
        let queue = try DatabaseQueue(configuration: WavedialDatabase.makeConfiguration())
        try WavedialDatabase.migrator.migrate(queue, upTo: "v2-search-in-popularity-order")
        let berlin = Coordinate(latitude: 52.52, longitude: 13.405)
        let stations = [
            F.station(F.uuid(1), "MP3 Berlin", lat: 52.60, lon: 13.40, votes: 5),
            F.station(F.uuid(2), "AAC Berlin", lat: 52.52, lon: 13.41, codec: "AAC", votes: 50),
            F.station(F.uuid(3), "HLS Berlin", lat: 52.53, lon: 13.40, codec: "AAC,H.264", hls: true, votes: 40),
            F.station(F.uuid(4), "WMA Berlin", lat: 52.52, lon: 13.40, codec: "WMA", votes: 900),
            F.station(F.uuid(5), "Video Berlin", lat: 52.52, lon: 13.40, codec: "H.264", hls: true, votes: 800),
            F.station(F.uuid(6), "FLAC Germany", codec: "FLAC", votes: 30),
        ]
        try queue.write { db in
            let placeholders = Array(repeating: "?", count: Station.databaseColumns.count).joined(separator: ",")
            for station in stations {
                try db.execute(sql: "INSERT INTO station (\(Station.databaseColumns.joined(separator: ","))) VALUES (\(placeholders))",
                               arguments: StatementArguments(station.databaseValues))
            }
            // What a sync under the old rule left behind.
            try db.execute(sql: """
                UPDATE station SET playable = upper(codec) IN ('', 'MP3', 'UNKNOWN') AND NOT hls AND lastcheckok;
                INSERT INTO stationGeo(id, minLat, maxLat, minLon, maxLon)
                    SELECT id, geo_lat, geo_lat, geo_long, geo_long FROM station WHERE playable AND geo_lat IS NOT NULL;
                INSERT INTO stationRank(rank, id)
                    SELECT row_number() OVER (ORDER BY playable, votes, clickcount, id), id FROM station;
                INSERT INTO stationSearch(rowid, name, tags, country, language, countrycode)
                    SELECT r.rank, s.name, s.tags, s.country, s.language, s.countrycode FROM stationRank r JOIN station s ON s.id = r.id;
                INSERT INTO dialAssignment(band, stationuuid, khz) VALUES ('nearby', ?, 94100), ('favorites', ?, 94100), ('favorites', ?, 99000);
                """, arguments: [F.uuid(1), F.uuid(1), F.uuid(2)])
            let key = String(decoding: try JSONEncoder().encode(NearbyBandKey(location: berlin, countryCode: "DE", band: .fm)), as: UTF8.self)
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?)", arguments: [WavedialDatabase.SettingKey.nearbyBandKey, key])
            for (position, station) in [stations[0], stations[1]].enumerated() {
                try Favorite(stationuuid: station.stationuuid, position: position + 1, addedAt: Date(timeIntervalSince1970: 0),
                             snapshot: station).insert(db)
            }
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM station WHERE playable"), ["MP3 Berlin"])
        }

        let database = try WavedialDatabase(writer: queue)
        let stored = try queue.read { db in try Row.fetchAll(db, sql: "SELECT stationuuid, playable FROM station ORDER BY id") }
        XCTAssertEqual(stored.map { $0["playable"] as Bool }, stations.map(\.isPlayable), "the column follows the sync's rule")
        XCTAssertEqual(stations.filter(\.isPlayable).map(\.name), ["MP3 Berlin", "AAC Berlin", "HLS Berlin", "FLAC Germany"])

        let nearby = try database.nearby(berlin, countryCode: "DE", limit: 10, radiusKm: 100)
        XCTAssertEqual(nearby.map(\.station.name), ["AAC Berlin", "HLS Berlin", "MP3 Berlin", "FLAC Germany"])
        XCTAssertEqual(try database.search(.init(text: "berlin")).map(\.name),
                       ["AAC Berlin", "HLS Berlin", "MP3 Berlin", "WMA Berlin", "Video Berlin"], "playable first, then votes")

        XCTAssertEqual(try database.favorites().map(\.stationuuid), [F.uuid(1), F.uuid(2)])
        let favorites = try database.favoritesBand(.fm).band
        XCTAssertEqual(favorites.frequency(of: F.uuid(1)), 94_100)
        XCTAssertEqual(favorites.frequency(of: F.uuid(2)), 99_000)
        var settings = DialSettings()
        settings.stations = 10
        let band = try database.nearbyBand(location: berlin, countryCode: "DE", settings: settings).band
        XCTAssertEqual(band.frequency(of: F.uuid(1)), 94_100, "the stored frequency is kept")
        XCTAssertEqual(Set(band.entries.map(\.stationuuid)), [F.uuid(1), F.uuid(2), F.uuid(3), F.uuid(6)])
    }

    /// An M3U import looks every line's URL up in the catalog: by index, not by scanning 50,000 rows.
    func testStreamURLLookupsUseAnIndex() throws {
        let database = try WavedialDatabase.inMemory(with: [F.station(F.uuid(1), "Radio Eins")])
        let plan = try database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + WavedialDatabase.stationByStreamURL, arguments: ["http://a/", "http://a/"])
                .map { $0["detail"] as String }
        }
        XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN station") }, "\(plan)")
        XCTAssertTrue(plan.contains { $0.contains("INDEX station_url ") }, "\(plan)")
        XCTAssertTrue(plan.contains { $0.contains("INDEX station_url_resolved ") }, "\(plan)")
        XCTAssertEqual(try database.station(streamURL: "http://stream.example/\(F.uuid(1))")?.name, "Radio Eins")
    }
}
