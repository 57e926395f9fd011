import Foundation
import GRDB

/// The appliance's one entry point to SQLite: catalog, favorites, history, dial and settings.
///
/// Holds the only `DatabaseWriter` of its process. Writes are methods named by intent,
/// one transaction each. Safe to use from any thread or task (GRDB serializes writes);
/// the daemon and the CLI may open the same file at once (WAL, busy timeout).
public final class WavedialDatabase: @unchecked Sendable {
    let writer: any DatabaseWriter

    init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// A connection that only reads (``openForReading(path:)``): nothing to migrate, and it could not.
    private init(reader: DatabaseQueue) {
        writer = reader
    }

    /// Opens (creating if needed) the database at `path`, creating its folder.
    ///
    /// Commits are durable (`synchronous=FULL` in WAL mode): an acknowledged favorite
    /// survives a pulled plug. The file and SQLite's `-wal` and `-shm` are 0660 and, when root
    /// opens it, stay the folder's owner's (``DatabaseFiles``), so the daemon and the CLI of its
    /// group share them whichever of them ran first.
    /// - Throws: `DatabaseError` or a file-system error, e.g. when the file is not a database.
    public static func open(path: String) throws -> WavedialDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = DatabaseFiles(path: path)
        try files.create()
        files.share()
        let pool = try DatabasePool(path: path, configuration: makeConfiguration())
        // The pool turns WAL on after the configuration's set-up, and with it synchronous=NORMAL, which
        // leaves commits in the page cache: an acknowledged favorite must be on the card.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let database = try WavedialDatabase(writer: pool)
        if try pool.read({ db in try !Self.migrator.hasCompletedMigrations(db) }) {
            throw DatabaseError(message: "\(path) was written by a newer wavedial")
        }
        return database
    }

    /// Opens the database at `path` to read it only (the CLI's listings): nothing is written, so it reads
    /// on a full disk too. A database that is not there yet, or whose schema is older than this wavedial's,
    /// is opened as ``open(path:)`` does (made, migrated). Its writes fail with `SQLITE_READONLY`.
    ///
    /// When nobody has it open, reading in WAL mode still needs SQLite's `-shm` index made, which a full disk
    /// refuses: then, with no write-ahead log holding anything (no `-wal`, or an empty one: no writer has
    /// it open), the main file is the whole database and is read as immutable, without any index.
    /// - Throws: `DatabaseError` or a file-system error.
    public static func openForReading(path: String) throws -> WavedialDatabase {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return try open(path: path) }
        let reader: DatabaseQueue
        do {
            reader = try readOnlyQueue(path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_CANTOPEN
                                                  || error.resultCode == .SQLITE_FULL {
            var log = stat()
            guard stat(path + "-wal", &log) != 0 || log.st_size == 0 else { throw error }
            reader = try readOnlyQueue("file:\(uriPath(path))?mode=ro&immutable=1")
        }
        guard try reader.read({ db in try Self.migrator.hasCompletedMigrations(db) }) else { return try open(path: path) }
        return WavedialDatabase(reader: reader)
    }

    private static func readOnlyQueue(_ filename: String) throws -> DatabaseQueue {
        var configuration = makeConfiguration()
        configuration.readonly = true
        return try DatabaseQueue(path: filename, configuration: configuration)
    }

    /// `path` for a `file:` URI (SQLite's, `SQLITE_USE_URI` in Debian's build): everything but unreserved
    /// characters and slashes percent-encoded, so a `?` or `#` in a folder's name stays part of the path.
    private static func uriPath(_ path: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
    }

    /// An empty database in memory, for tests.
    public static func inMemory() throws -> WavedialDatabase {
        try WavedialDatabase(writer: DatabaseQueue(configuration: makeConfiguration()))
    }

    /// The WAL's size, in bytes, kept between checkpoints: a little over the 1,000 pages after which
    /// SQLite checkpoints.
    static let walSizeLimit = 4 << 20

    static func makeConfiguration() -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A sync's WAL (tens of MB) is cut back to this after its checkpoint; below it, the WAL of
            // everyday writes (checkpointed every 1,000 pages, SQLite's default) is overwritten in
            // place, which costs the SD card no allocation and the file system no journal entry.
            try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
            db.add(function: foldFunction)
            db.add(function: playableFunction)
        }
        return configuration
    }

    /// `wd_fold(text)`: NFKC compatibility folding before full-text indexing, so that
    /// "𝔅𝔲𝔷𝔷𝔦𝔫" is found by "buzzin"; marks of the generic combining blocks that are left
    /// after composing (stacked "Z̸̢̛a̶l̷g̴o̵" marks) are dropped, so that "zalgo" finds it.
    /// Case and the diacritics of composed letters are folded by FTS5 itself.
    static let foldFunction = DatabaseFunction("wd_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }

    /// `wd_playable(codec, hls, lastcheckok, url, url_resolved)`: ``Station/isPlayable`` for a row's
    /// columns, so that a migration re-derives the stored `playable` column by the rule the sync uses.
    static let playableFunction = DatabaseFunction("wd_playable", argumentCount: 5, pure: true) { values in
        let url = String.fromDatabaseValue(values[3]) ?? "", resolved = String.fromDatabaseValue(values[4]) ?? ""
        return StationPlayability.reason(
            codec: String.fromDatabaseValue(values[0]) ?? "", hls: Bool.fromDatabaseValue(values[1]) ?? false,
            lastCheckOK: Bool.fromDatabaseValue(values[2]) ?? false, streamURL: resolved.isEmpty ? url : resolved) == nil
    }

    static func fold(_ text: String) -> String {
        // NFKC leaves ASCII as it is; most names are ASCII and Foundation's normalisation is slow.
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Runs `PRAGMA integrity_check`; returns the problems found (empty when sound).
    public func integrityProblems() throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
        }
    }
}
