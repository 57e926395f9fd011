import Foundation
import GRDB
import PrintableText

extension WavedialDatabase {
    /// Favorites in their order.
    public func favorites() throws -> [Favorite] {
        try writer.read { db in try Favorite.order(Favorite.CodingKeys.position).fetchAll(db) }
    }

    /// Whether `stationuuid` is a favorite.
    public func isFavorite(_ stationuuid: String) throws -> Bool {
        try writer.read { db in try Favorite.exists(db, key: stationuuid.lowercased()) }
    }

    /// Adds `station` at the end of the favorites (or keeps its place if it is one already).
    /// - Parameter typed: the user gave the station by its URL (`tune URL`), not the catalog: it counts as
    ///   typed (``typedFavoriteIDs()``), as an imported one the catalog does not know.
    /// - Returns: whether it was added.
    @discardableResult
    public func addFavorite(_ station: Station, typed: Bool = false, at date: Date = Date()) throws -> Bool {
        try writer.write { db in
            guard try !Favorite.exists(db, key: station.stationuuid) else { return false }
            let last = try Int.fetchOne(db, sql: "SELECT max(position) FROM favorite") ?? 0
            try Favorite(stationuuid: station.stationuuid, position: last + 1, addedAt: date, snapshot: station).insert(db)
            if typed {
                try db.execute(sql: "INSERT INTO typedFavorite(stationuuid) VALUES (?)", arguments: [station.stationuuid])
            }
            return true
        }
    }

    /// Removes a favorite and closes the gap in the order.
    /// - Returns: whether it was a favorite.
    @discardableResult
    public func removeFavorite(_ stationuuid: String) throws -> Bool {
        try writer.write { db in
            guard let favorite = try Favorite.fetchOne(db, key: stationuuid.lowercased()) else { return false }
            try favorite.delete(db)
            try db.execute(sql: "UPDATE favorite SET position = position - 1 WHERE position > ?", arguments: [favorite.position])
            return true
        }
    }

    /// Moves a favorite to `position` (1-based, clamped to the list).
    /// - Returns: the position it ended at, or nil when it is not a favorite.
    @discardableResult
    public func moveFavorite(_ stationuuid: String, to position: Int) throws -> Int? {
        try writer.write { db in
            var order = try String.fetchAll(db, sql: "SELECT stationuuid FROM favorite ORDER BY position")
            guard let index = order.firstIndex(of: stationuuid.lowercased()) else { return nil }
            let uuid = order.remove(at: index)
            let target = min(max(position, 1), order.count + 1)
            order.insert(uuid, at: target - 1)
            // Positions are not unique in the schema, so one pass of updates is safe.
            for (offset, uuid) in order.enumerated() {
                try db.execute(sql: "UPDATE favorite SET position = ? WHERE stationuuid = ?", arguments: [offset + 1, uuid])
            }
            return target
        }
    }

    /// Imports favorites (``FavoritesFile/parse(_:)``: a `fav export` or a playlist), appending the ones
    /// not yet present in their given order. A station the catalog knows (by stationuuid, or a playlist
    /// entry by its stream URL) is stored as the catalog has it; otherwise as the file says, cleaned
    /// (``Station/printable()``: what the file says is hostile), a playlist entry under an id derived from
    /// its URL, and it counts as typed by the user (``typedFavoriteIDs()``). One transaction: all or nothing.
    /// - Returns: how many were added.
    public func importFavorites(_ entries: [FavoritesFile.Entry], at date: Date = Date()) throws -> Int {
        try writer.write { db in
            var added = 0
            var last = try Int.fetchOne(db, sql: "SELECT max(position) FROM favorite") ?? 0
            for entry in entries {
                let (station, inCatalog) = try Self.station(for: entry, db)
                guard try !Favorite.exists(db, key: station.stationuuid) else { continue }
                last += 1
                try Favorite(stationuuid: station.stationuuid, position: last, addedAt: date, snapshot: station).insert(db)
                if !inCatalog {
                    try db.execute(sql: "INSERT INTO typedFavorite(stationuuid) VALUES (?)", arguments: [station.stationuuid])
                }
                added += 1
            }
            return added
        }
    }

    /// The station an imported entry names: the catalog's record when it knows it, else the file's.
    private static func station(for entry: FavoritesFile.Entry, _ db: Database) throws -> (station: Station, inCatalog: Bool) {
        switch entry {
        case .station(let imported):
            let station = imported.printable()
            if let known = try Station.filter(Station.CodingKeys.stationuuid == station.stationuuid).fetchOne(db) {
                return (known, true)
            }
            return (station, false)
        case .stream(let url, let name):
            let url = StationText.printable(url)
            if let known = try station(streamURL: url, db) { return (known, true) }
            var station = Station(stationuuid: FavoritesFile.syntheticUUID(for: url), name: name ?? url, url: url)
            station.codec = ""
            return (station.printable(), false)
        }
    }

    /// The stationuuids of the favorites whose URL the user gave (imported, not from the catalog):
    /// their stations may reach the home network (the player's user-typed address policy), the catalog's may not.
    public func typedFavoriteIDs() throws -> Set<String> {
        try writer.read { db in try Set(String.fetchAll(db, sql: "SELECT stationuuid FROM typedFavorite")) }
    }

    /// Refreshes each favorite's snapshot from the catalog; favorites whose station is gone keep theirs,
    /// and so do those the user typed (a catalog record with the same uuid must not bring its URL in).
    func refreshFavoriteSnapshots(_ db: Database) throws {
        let typed = try Set(String.fetchAll(db, sql: "SELECT stationuuid FROM typedFavorite"))
        for var favorite in try Favorite.fetchAll(db) where !typed.contains(favorite.stationuuid) {
            guard let current = try Station.filter(Station.CodingKeys.stationuuid == favorite.stationuuid).fetchOne(db),
                  current != favorite.snapshot else { continue }
            favorite.snapshot = current
            try favorite.update(db)
        }
    }
}
