import Foundation
import GRDB

extension WavedialDatabase {
    /// The most alarms kept: more is a mistake (a script in a loop), refused.
    public static let alarmLimit = 64

    /// Why an alarm was not stored.
    public struct AlarmError: Error, CustomStringConvertible, Equatable {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// Every alarm, by time of day.
    public func alarms() throws -> [Alarm] {
        try writer.read { db in try Alarm.order(Alarm.CodingKeys.hour, Alarm.CodingKeys.minute, Alarm.CodingKeys.second, Alarm.CodingKeys.id).fetchAll(db) }
    }

    /// Stores a new alarm durably; returns it with its id. - Throws: ``AlarmError`` past ``alarmLimit`` or
    /// with no days.
    public func addAlarm(_ alarm: Alarm) throws -> Alarm {
        guard !alarm.weekdays.isEmpty else { throw AlarmError(description: "an alarm needs at least one day") }
        return try writer.write { db in
            guard try Alarm.fetchCount(db) < Self.alarmLimit else {
                throw AlarmError(description: "there are \(Self.alarmLimit) alarms already; remove one first")
            }
            var stored = alarm
            stored.id = nil
            try stored.insert(db)
            return stored
        }
    }

    /// Removes alarm `id`. - Returns: whether there was one.
    @discardableResult
    public func removeAlarm(_ id: Int64) throws -> Bool {
        try writer.write { db in try Alarm.deleteOne(db, key: id) }
    }

    /// Turns alarm `id` on or off. - Returns: whether there was one.
    @discardableResult
    public func setAlarm(_ id: Int64, enabled: Bool) throws -> Bool {
        try writer.write { db in
            guard var alarm = try Alarm.fetchOne(db, key: id) else { return false }
            alarm.enabled = enabled
            try alarm.update(db)
            return true
        }
    }
}
