import Foundation
import GRDB

/// A station that was played, table `playHistory`.
public struct PlayHistoryEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "playHistory"

    public var id: Int64?
    public var stationuuid: String
    public var name: String
    public var playedAt: Date

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, stationuuid, name
        case playedAt = "played_at"
    }

    public init(stationuuid: String, name: String, playedAt: Date) {
        self.stationuuid = stationuuid
        self.name = name
        self.playedAt = playedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .storageText }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .storageText }
}
