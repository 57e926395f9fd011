import Foundation
import GRDB

extension WavedialDatabase {
    /// How many history rows are kept: the newest `historyLimit` of each history, up to
    /// `historyPruneSlack` more between prunes.
    public static let historyLimit = 1000
    /// Older rows go this many at a time: one delete every so often, not a page of the SD card
    /// rewritten with every entry.
    static let historyPruneSlack = 100

    /// Records that `station` started playing.
    public func recordPlay(of station: Station, at date: Date = Date()) throws {
        try writer.write { db in
            var entry = PlayHistoryEntry(stationuuid: station.stationuuid, name: station.name, playedAt: date)
            try entry.insert(db)
            try pruneHistory(PlayHistoryEntry.databaseTableName, newest: db.lastInsertedRowID, db)
        }
    }

    /// Records a song title heard on `station` (from its ICY metadata).
    public func recordSong(_ title: String, on station: Station, at date: Date = Date()) throws {
        try recordSongs([SongHistoryEntry(stationuuid: station.stationuuid, stationName: station.name, title: title, heardAt: date)])
    }

    /// Records song titles heard, oldest first, in one transaction.
    public func recordSongs(_ songs: [SongHistoryEntry]) throws {
        guard !songs.isEmpty else { return }
        try writer.write { db in
            for song in songs {
                var entry = song
                entry.id = nil
                try entry.insert(db)
            }
            try pruneHistory(SongHistoryEntry.databaseTableName, newest: db.lastInsertedRowID, db)
        }
    }

    /// Deletes the rows of `table` older than the newest ``historyLimit`` once there are
    /// ``historyPruneSlack`` more (ids count up from the oldest row kept).
    private func pruneHistory(_ table: String, newest: Int64, _ db: Database) throws {
        guard let oldest = try Int64.fetchOne(db, sql: "SELECT min(id) FROM \(table)"),
              newest - oldest + 1 > Int64(Self.historyLimit + Self.historyPruneSlack) else { return }
        try db.execute(sql: "DELETE FROM \(table) WHERE id <= ?", arguments: [newest - Int64(Self.historyLimit)])
    }

    /// Stations played, newest first.
    public func playHistory(limit: Int = 50) throws -> [PlayHistoryEntry] {
        try writer.read { db in
            try PlayHistoryEntry.order(Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// Songs heard, newest first.
    public func songHistory(limit: Int = 50) throws -> [SongHistoryEntry] {
        try writer.read { db in
            try SongHistoryEntry.order(Column("id").desc).limit(limit).fetchAll(db)
        }
    }
}
