import Foundation
import GRDB

/// A favorite station, table `favorite`: ordered, with a snapshot of the station so it
/// survives the station vanishing from the catalog upstream.
public struct Favorite: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "favorite"

    public var stationuuid: String
    /// 1-based place in the list.
    public var position: Int
    public var addedAt: Date
    /// The station as it was when added, refreshed by each sync while it still exists.
    public var snapshot: Station

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case stationuuid, position, snapshot
        case addedAt = "added_at"
    }

    public init(stationuuid: String, position: Int, addedAt: Date, snapshot: Station) {
        self.stationuuid = stationuuid
        self.position = position
        self.addedAt = addedAt
        self.snapshot = snapshot
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .storageText }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .storageText }
}
