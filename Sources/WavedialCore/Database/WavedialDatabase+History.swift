import Foundation
import GRDB

extension WavedialDatabase {
    /// How many history rows are kept; older ones are pruned on insert.
    static let historyLimit = 1000

    /// Records that `station` started playing.
    public func recordPlay(of station: Station, at date: Date = Date()) throws {
        try writer.write { db in
            var entry = PlayHistoryEntry(stationuuid: station.stationuuid, name: station.name, playedAt: date)
            try entry.insert(db)
            try db.execute(sql: "DELETE FROM playHistory WHERE id <= ?", arguments: [entry.id! - Int64(Self.historyLimit)])
        }
    }

    /// Records a song title heard on `station` (from its ICY metadata).
    public func recordSong(_ title: String, on station: Station, at date: Date = Date()) throws {
        try writer.write { db in
            var entry = SongHistoryEntry(stationuuid: station.stationuuid, stationName: station.name, title: title, heardAt: date)
            try entry.insert(db)
            try db.execute(sql: "DELETE FROM songHistory WHERE id <= ?", arguments: [entry.id! - Int64(Self.historyLimit)])
        }
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
