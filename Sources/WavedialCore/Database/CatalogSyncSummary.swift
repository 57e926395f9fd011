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
    /// Records in the download that were unusable (no stationuuid, name or url).
    public var skipped: Int
    /// The server the catalog came from.
    public var server: String
    public var finishedAt: Date

    public enum CodingKeys: String, CodingKey {
        case total, playable, added, updated, removed, skipped, server
        case finishedAt = "finished_at"
    }
}
