import Foundation
import GRDB

/// A catalog download in progress: stations are staged as they are parsed, and
/// ``commit(server:)`` applies them to the catalog in one transaction. Until then the
/// previous catalog is untouched, so a failed or malformed download loses nothing.
///
/// Use from one thread (the one running the download). Memory stays small: stations are
/// written to the staging table in batches as they arrive.
public final class CatalogImport {
    private let database: WavedialDatabase
    private var pending: [Station] = []
    private let batchSize = 2000
    /// Stations staged so far.
    public private(set) var received = 0
    /// Records skipped as unusable.
    public private(set) var skipped = 0
    /// Records kept after repairs (an impossible position dropped, control characters removed, a name cut).
    public private(set) var repaired = 0

    /// Starts an import, clearing whatever an interrupted one left in the staging table.
    public init(database: WavedialDatabase) throws {
        self.database = database
        try database.writer.write { db in try db.execute(sql: "DELETE FROM stationImport") }
    }

    /// Stages one station (`repaired`: its record needed repairs); a later record with the same
    /// stationuuid replaces it.
    public func add(_ station: Station, repaired: Bool = false) throws {
        pending.append(station)
        received += 1
        if repaired { self.repaired += 1 }
        if pending.count >= batchSize { try flush() }
    }

    /// Counts a record that could not be used.
    public func skip() { skipped += 1 }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        // The staging table holds nothing a power cut could lose (the download is simply
        // repeated), so its batches skip the fsync that user data gets.
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = OFF")
            defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
            try db.inTransaction {
                let statement = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO stationImport (\(Self.columnList))
                    VALUES (\(Array(repeating: "?", count: Self.columns.count).joined(separator: ",")))
                    """)
                for station in batch {
                    try statement.execute(arguments: StatementArguments(station.databaseValues))
                }
                return .commit
            }
        }
    }

    /// Applies the staged download to the catalog in one durable transaction: upserts by
    /// stationuuid, removes stations that vanished, rebuilds the search and geo indexes and
    /// refreshes favorites' snapshots. Favorites, history and the dial are kept.
    /// - Throws: ``CatalogImportError/empty`` when nothing usable arrived (a broken
    ///   download must not wipe the catalog), or a database error; the catalog is then unchanged.
    public func commit(server: String, at date: Date = Date()) throws -> CatalogSyncSummary {
        try flush()
        let staged = try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stationImport")! }
        guard staged > 0 else { throw CatalogImportError.empty(skipped: skipped) }
        let skipped = self.skipped, repaired = self.repaired, duplicates = received - staged
        return try database.writer.write { db in
            let added = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM stationImport i WHERE NOT EXISTS (SELECT 1 FROM station s WHERE s.stationuuid = i.stationuuid)
                """)!
            let removed = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM station s WHERE NOT EXISTS (SELECT 1 FROM stationImport i WHERE i.stationuuid = s.stationuuid)
                """)!
            let unchanged = Self.columns.map { "s.\($0) IS i.\($0)" }.joined(separator: " AND ")
            let updated = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM stationImport i JOIN station s ON s.stationuuid = i.stationuuid WHERE NOT (\(unchanged))
                """)!
            try db.execute(sql: """
                DELETE FROM station WHERE NOT EXISTS (SELECT 1 FROM stationImport i WHERE i.stationuuid = station.stationuuid);
                INSERT INTO station (\(Self.columnList)) SELECT \(Self.columnList) FROM stationImport WHERE true
                    ON CONFLICT(stationuuid) DO UPDATE SET \(Self.columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "));
                INSERT INTO stationSearch(stationSearch) VALUES ('delete-all');
                INSERT INTO stationSearch(rowid, name, tags, country, language)
                    SELECT id, wd_fold(name), wd_fold(tags), wd_fold(country), wd_fold(language) FROM station;
                DELETE FROM stationGeo;
                INSERT INTO stationGeo(id, minLat, maxLat, minLon, maxLon)
                    SELECT id, geo_lat, geo_lat, geo_long, geo_long FROM station
                    WHERE playable AND geo_lat BETWEEN -90 AND 90 AND geo_long BETWEEN -180 AND 180
                      AND NOT (geo_lat = 0 AND geo_long = 0);
                DELETE FROM stationImport;
                """)
            try database.refreshFavoriteSnapshots(db)
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM station")!
            let playable = try Int.fetchOne(db, sql: "SELECT count(*) FROM station WHERE playable")!
            let summary = CatalogSyncSummary(
                total: total, playable: playable, added: added, updated: updated, removed: removed,
                skipped: skipped, repaired: repaired, duplicates: duplicates, server: server, finishedAt: date)
            try database.setSetting(WavedialDatabase.SettingKey.lastSync, summary, db)
            return summary
        }
    }

    /// Drops what was staged; the catalog stays as it was.
    public func discard() throws {
        pending.removeAll()
        try database.writer.write { db in try db.execute(sql: "DELETE FROM stationImport") }
    }

    static let columns = Station.databaseColumns
    static let columnList = columns.joined(separator: ", ")
}

/// Why a catalog import could not be applied.
public enum CatalogImportError: Error, CustomStringConvertible, Equatable {
    /// The download held no usable station.
    case empty(skipped: Int)

    public var description: String {
        switch self {
        case .empty(let skipped):
            return skipped > 0
                ? "the download held no usable station (\(skipped) records skipped); the catalog was kept"
                : "the download held no stations; the catalog was kept"
        }
    }
}
