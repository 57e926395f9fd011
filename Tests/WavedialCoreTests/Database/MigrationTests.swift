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
            F.station(F.uuid(4), "Radio AAC", country: "DE", codec: "AAC", votes: 900),
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
        XCTAssertEqual(try names(.init(text: "radio")), ["Radio Zwei", "Radio Eins", "Radio Vaticana", "Radio AAC"])
        XCTAssertEqual(try names(.init(text: "radio", country: "va")), ["Radio Vaticana"])
        XCTAssertEqual(try names(.init(country: "DE", limit: 2)), ["Radio Zwei", "Radio Eins"])
        XCTAssertEqual(try database.station(uuid: F.uuid(5))?.name, "Jazz FM")
    }
}
