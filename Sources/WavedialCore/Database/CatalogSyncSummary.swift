import Foundation

/// What a catalog sync changed, reported by `wavedial sync` and stored as the last sync.
public struct CatalogSyncSummary: Codable, Sendable, Equatable {
    /// Stations in the catalog after the sync.
    public var total: Int
    /// Of those, how many can be played (and so may go on the dial).
    public var playable: Int
    public var added: Int
    public var updated: Int
    public var removed: Int
    /// Records in the download that were unusable (no stationuuid or url, a stationuuid that is no
    /// UUID, a url over 8,192 characters).
    public var skipped: Int
    /// Records kept after repairs: an impossible position dropped, control characters removed, a name cut.
    public var repaired: Int
    /// Records whose stationuuid came again in the download (the last one is kept).
    public var duplicates: Int
    /// The server the catalog came from.
    public var server: String
    public var finishedAt: Date

    public init(total: Int, playable: Int, added: Int, updated: Int, removed: Int, skipped: Int, repaired: Int = 0,
                duplicates: Int = 0, server: String, finishedAt: Date) {
        self.total = total
        self.playable = playable
        self.added = added
        self.updated = updated
        self.removed = removed
        self.skipped = skipped
        self.repaired = repaired
        self.duplicates = duplicates
        self.server = server
        self.finishedAt = finishedAt
    }

    /// Reads summaries stored before `repaired` and `duplicates` existed as having none.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            total: container.decode(Int.self, forKey: .total), playable: container.decode(Int.self, forKey: .playable),
            added: container.decode(Int.self, forKey: .added), updated: container.decode(Int.self, forKey: .updated),
            removed: container.decode(Int.self, forKey: .removed), skipped: container.decode(Int.self, forKey: .skipped),
            repaired: container.decodeIfPresent(Int.self, forKey: .repaired) ?? 0,
            duplicates: container.decodeIfPresent(Int.self, forKey: .duplicates) ?? 0,
            server: container.decode(String.self, forKey: .server), finishedAt: container.decode(Date.self, forKey: .finishedAt))
    }

    public enum CodingKeys: String, CodingKey {
        case total, playable, added, updated, removed, skipped, repaired, duplicates, server
        case finishedAt = "finished_at"
    }
}
