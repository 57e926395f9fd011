import Foundation
import PrintableText
import WavedialCore

/// An alarm as `wavedial alarm list --json` shows it (field names are the CLI's interface).
public struct AlarmListing: Codable, Sendable, Equatable {
    public struct StationInfo: Codable, Sendable, Equatable {
        public var stationuuid: String
        public var name: String?
    }

    public var id: Int64
    /// `07:00`, or `07:00:15` with seconds.
    public var time: String
    /// `daily`, `mon-fri`, `sat,sun`, …
    public var days: String
    public var enabled: Bool
    /// Nil: the station that played last.
    public var station: StationInfo?
    /// When it rings next, local ISO 8601 with the offset; nil when disabled.
    public var nextRing: String?

    enum CodingKeys: String, CodingKey {
        case id, time, days, enabled, station
        case nextRing = "next_ring"
    }

    /// `alarm` as listed at Unix time `now` in the zone of `offset`.
    public init(_ alarm: Alarm, now: Int64, offset: @escaping AlarmSchedule.Offset) {
        id = alarm.id ?? 0
        time = alarm.time.description
        days = alarm.weekdays.description
        enabled = alarm.enabled
        station = alarm.stationuuid.map { StationInfo(stationuuid: $0, name: alarm.stationName) }
        nextRing = alarm.enabled
            ? AlarmSchedule.nextRing(of: alarm.time, on: alarm.weekdays, after: now, offset: offset).map { LocalClock.iso8601($0, offset: offset) }
            : nil
    }
}

/// `alarm_add`'s alarm: checked again by the daemon (the socket is input like any other).
public struct AlarmRequest: Codable, Sendable, Equatable {
    /// `HH:MM[:SS]`.
    public var time: String
    /// ``AlarmDays``' words; nil: daily.
    public var days: String?
    /// The station to play; nil: the one that played last.
    public var stationuuid: String?
    public var stationName: String?

    enum CodingKeys: String, CodingKey {
        case time, days, stationuuid
        case stationName = "station_name"
    }

    public init(time: String, days: String? = nil, stationuuid: String? = nil, stationName: String? = nil) {
        self.time = time
        self.days = days
        self.stationuuid = stationuuid
        self.stationName = stationName
    }

    /// The alarm to store. - Throws: the parsers' errors, in words.
    public func alarm() throws -> Alarm {
        let time = try AlarmTime(parsing: time)
        let days = try days.map { try AlarmDays(parsing: $0) } ?? .daily
        if let stationuuid, stationuuid.isEmpty || stationuuid.utf8.count > 128 {
            throw WavedialDatabase.AlarmError(description: "an alarm's station id is 1 to 128 characters")
        }
        let name = stationName.map { StationText.printable(String($0.prefix(200))) }
        return Alarm(time: time, days: days, stationuuid: stationuuid?.lowercased(), stationName: name)
    }
}
