import Foundation
import GRDB

/// A song title heard on a station (from its ICY metadata), table `songHistory`.
public struct SongHistoryEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "songHistory"

    public var id: Int64?
    public var stationuuid: String
    public var stationName: String
    public var title: String
    public var heardAt: Date

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, stationuuid, title
        case stationName = "station_name"
        case heardAt = "heard_at"
    }

    public init(stationuuid: String, stationName: String, title: String, heardAt: Date) {
        self.stationuuid = stationuuid
        self.stationName = stationName
        self.title = title
        self.heardAt = heardAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .storageText }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .storageText }
}
