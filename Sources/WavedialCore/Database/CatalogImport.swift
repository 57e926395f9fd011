import Foundation
import GRDB

/// A catalog download in progress: stations are staged as they are parsed, and
/// ``commit(server:)`` applies them to the catalog in one transaction. Until then the
/// previous catalog is untouched, so a failed or malformed download loses nothing.
///
/// The staging table lives in a database file of its own beside the catalog (`<database>-staging`,
/// attached to the writer's connection as `wd_staging`), removed once the import is committed or
/// discarded: what a download staged, however large, does not stay on the SD card, and the catalog
/// file is left with no free pages from it.
///
/// Use from one thread (the one running the download). Memory stays small: stations are
/// written to the staging table in batches as they arrive. The writes run on the database's
/// writer queue while the next batch is parsed, so a sync keeps two cores busy; at most
/// ``batchesInFlight`` batches wait for the writer.
public final class CatalogImport {
    private let database: WavedialDatabase
    /// The staging file; ":memory:" for a database in memory.
    private let stagingPath: String
    private var isAttached = false
    private var pending: [Station] = []
    private let batchSize = 2000
    private static let batchesInFlight = 2
    private let writeSlots = DispatchSemaphore(value: CatalogImport.batchesInFlight)
    private let writeFailure = FirstFailure()
    /// Stations staged so far.
    public private(set) var received = 0
    /// Records skipped as unusable.
    public private(set) var skipped = 0
    /// Records kept after repairs (an impossible position dropped, control characters removed, a name cut).
    public private(set) var repaired = 0

    /// Starts an import in a new staging file (what an interrupted one left there is removed first).
    public init(database: WavedialDatabase) throws {
        self.database = database
        let path = database.writer.path
        stagingPath = path.isEmpty || path == ":memory:" || path.hasPrefix("file:") ? ":memory:" : Self.stagingPath(for: path)
        try attach()
    }

    deinit {
        try? detach()
    }

    /// The staging database's path for the catalog at `databasePath`.
    public static func stagingPath(for databasePath: String) -> String { databasePath + "-staging" }

    private func attach() throws {
        removeStagingFile()
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS wd_staging", arguments: [stagingPath])
            isAttached = true
            // Nothing here needs to survive a crash: the download is simply repeated.
            try db.execute(sql: """
                PRAGMA wd_staging.journal_mode = OFF;
                PRAGMA wd_staging.synchronous = OFF;
                CREATE TABLE wd_staging.stationImport AS SELECT * FROM main.station WHERE 0;
                CREATE UNIQUE INDEX wd_staging.stationImport_uuid ON stationImport(stationuuid);
                """)
        }
    }

    /// Detaches the staging database and removes its file.
    private func detach() throws {
        guard isAttached else { return }
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "DETACH DATABASE wd_staging") }
        isAttached = false
        removeStagingFile()
    }

    private func removeStagingFile() {
        guard stagingPath != ":memory:" else { return }
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(stagingPath + suffix) }
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

    /// Hands the pending batch to the writer queue; throws what an earlier batch met.
    private func flush() throws {
        try writeFailure.rethrow()
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        writeSlots.wait()
        database.writer.asyncWriteWithoutTransaction { [writeSlots, writeFailure] db in
            defer { writeSlots.signal() }
            guard !writeFailure.happened else { return }
            do { try Self.stage(batch, db) } catch { writeFailure.record(error) }
        }
    }

    /// Waits until every batch handed to the writer is written; throws the first error one met.
    private func drain() throws {
        // The writer queue is serial: this runs after every batch queued before it.
        database.writer.writeWithoutTransaction { _ in }
        try writeFailure.rethrow()
    }

    private static func stage(_ batch: [Station], _ db: Database) throws {
        // The staging table holds nothing a power cut could lose (the download is simply
        // repeated), so its batches skip the fsync that user data gets.
        try db.inTransaction {
            // Not cached: it names the staging database, which is detached after the import.
            let statement = try db.makeStatement(sql: """
                INSERT OR REPLACE INTO wd_staging.stationImport (\(columnList))
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ",")))
                """)
            for station in batch {
                try statement.execute(arguments: StatementArguments(station.databaseValues))
            }
            return .commit
        }
    }

    /// Applies the staged download to the catalog in one durable transaction: upserts by
    /// stationuuid, removes stations that vanished, rebuilds the search and geo indexes and
    /// refreshes favorites' snapshots. Favorites, history and the dial are kept.
    /// - Throws: ``CatalogImportError/empty`` when nothing usable arrived (a broken
    ///   download must not wipe the catalog), or a database error; the catalog is then unchanged.
    public func commit(server: String, at date: Date = Date()) throws -> CatalogSyncSummary {
        try flush()
        try drain()
        // The staging database is attached to the writer's connection only: read it there.
        let staged = try database.writer.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM wd_staging.stationImport")!
        }
        guard staged > 0 else {
            try discard()
            throw CatalogImportError.empty(skipped: skipped)
        }
        let skipped = self.skipped, repaired = self.repaired, duplicates = received - staged
        defer { try? detach() }
        return try database.writer.write { db in
            let added = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM wd_staging.stationImport i WHERE NOT EXISTS (SELECT 1 FROM station s WHERE s.stationuuid = i.stationuuid)
                """)!
            let removed = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM station s WHERE NOT EXISTS (SELECT 1 FROM wd_staging.stationImport i WHERE i.stationuuid = s.stationuuid)
                """)!
            let updated = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM wd_staging.stationImport i JOIN station s ON s.stationuuid = i.stationuuid
                WHERE NOT (\(Self.sameRow("s", "i")))
                """)!
            // Only what changed is written: a re-sync rewrites the few stations that changed
            // upstream, not all 50,000 rows and their R*Tree entries (an R*Tree delete or insert is
            // costly; an R*Tree cannot be read by the statement that writes it, hence geoPending).
            // The full-text index is rebuilt whole: its rows are numbered by popularity, which a
            // re-sync changes, and it is contentless, so a row can only leave it with the exact text
            // it was indexed with.
            try db.execute(sql: """
                DELETE FROM stationGeo WHERE id IN (
                    SELECT s.id FROM station s LEFT JOIN wd_staging.stationImport i ON i.stationuuid = s.stationuuid
                    WHERE i.stationuuid IS NULL OR i.playable IS NOT s.playable
                       OR i.geo_lat IS NOT s.geo_lat OR i.geo_long IS NOT s.geo_long);
                DELETE FROM station WHERE NOT EXISTS (SELECT 1 FROM wd_staging.stationImport i WHERE i.stationuuid = station.stationuuid);
                """)
            // When most of the catalog is written (a first sync), the station table's secondary
            // indexes are dropped and built again afterwards: one sort each instead of tens of
            // thousands of scattered inserts, which takes about a third off writing the rows.
            let rebuiltIndexes = added + updated > staged / 2 ? try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'station' AND sql IS NOT NULL
                """) : []
            for index in rebuiltIndexes { try db.execute(sql: "DROP INDEX \((index["name"] as String).quotedDatabaseIdentifier)") }
            try db.execute(sql: """
                INSERT INTO station (\(Self.columnList)) SELECT \(Self.columnList) FROM wd_staging.stationImport WHERE true
                    ON CONFLICT(stationuuid) DO UPDATE SET \(Self.columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                    WHERE NOT (\(Self.sameRow("station", "excluded")));
                """)
            for index in rebuiltIndexes { try db.execute(sql: index["sql"] as String) }
            try db.execute(sql: """
                DELETE FROM stationRank;
                INSERT INTO stationRank(rank, id)
                    SELECT row_number() OVER (ORDER BY playable, votes, clickcount, id), id FROM station;
                INSERT INTO stationSearch(stationSearch) VALUES ('delete-all');
                INSERT INTO stationSearch(rowid, name, tags, country, language, countrycode)
                    SELECT r.rank, wd_fold(s.name), wd_fold(s.tags), wd_fold(s.country), wd_fold(s.language), s.countrycode
                    FROM stationRank r JOIN station s ON s.id = r.id;
                CREATE TEMP TABLE geoPending AS SELECT id FROM station
                    WHERE playable AND geo_lat BETWEEN -90 AND 90 AND geo_long BETWEEN -180 AND 180
                      AND NOT (geo_lat = 0 AND geo_long = 0)
                      AND id NOT IN (SELECT id FROM stationGeo);
                INSERT INTO stationGeo(id, minLat, maxLat, minLon, maxLon)
                    SELECT s.id, s.geo_lat, s.geo_lat, s.geo_long, s.geo_long FROM geoPending p JOIN station s ON s.id = p.id;
                DROP TABLE geoPending;
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

    /// Drops what was staged (its file is removed); the catalog stays as it was.
    public func discard() throws {
        pending.removeAll()
        try? drain()
        try detach()
    }

    static let columns = Station.databaseColumns
    static let columnList = columns.joined(separator: ", ")

    /// SQL true when rows `a` and `b` hold the same station data (NULL-safe).
    private static func sameRow(_ a: String, _ b: String) -> String {
        columns.map { "\(a).\($0) IS \(b).\($0)" }.joined(separator: " AND ")
    }
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

/// The first error met by a staged batch on the writer queue, reported on the download's thread.
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?

    var happened: Bool { lock.withLock { error != nil } }

    func record(_ error: Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    func rethrow() throws {
        if let error = lock.withLock({ error }) { throw error }
    }
}
