import Foundation
import GRDB

/// An alarm, table `alarm`: a wall-clock time, the days it rings on and the station it plays (none: the
/// station that played last). Written durably (the database's `synchronous=FULL`), so it survives power loss.
public struct Alarm: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "alarm"

    public var id: Int64?
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// ``AlarmDays``' bits (bit 0 Sunday).
    public var days: Int
    public var stationuuid: String?
    /// The station's name when the alarm was set, for the list (the catalog may lose it).
    public var stationName: String?
    public var enabled: Bool

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, hour, minute, second, days, stationuuid, enabled
        case stationName = "station_name"
    }

    public init(time: AlarmTime, days: AlarmDays, stationuuid: String? = nil, stationName: String? = nil, enabled: Bool = true) {
        hour = time.hour
        minute = time.minute
        second = time.second
        self.days = days.rawValue
        self.stationuuid = stationuuid
        self.stationName = stationName
        self.enabled = enabled
    }

    /// The time it rings (midnight for a row whose fields are out of range, which the table's checks refuse).
    public var time: AlarmTime { AlarmTime(hour: hour, minute: minute, second: second) ?? AlarmTime(hour: 0, minute: 0)! }

    public var weekdays: AlarmDays { AlarmDays(rawValue: days) }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
