import Foundation
import PrintableText

/// The days of the week an alarm rings on: `daily`, `weekdays`, `weekends`, a day (`mon`), a list
/// (`sat,sun`), a range (`mon-fri`; `fri-mon` wraps over the weekend) or a mix (`mon-wed,sat`). Day names are
/// their first three letters or in full, in any case. Hostile text: at most 64 characters.
public struct AlarmDays: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue & 0x7F }

    /// Bit `weekday` set; weekday 0 is Sunday, as in C's `tm_wday`.
    public init(weekday: Int) { self.init(rawValue: 1 << ((weekday % 7 + 7) % 7)) }

    public static let daily = AlarmDays(rawValue: 0x7F)
    public static let weekdays = AlarmDays(rawValue: 0x3E)
    public static let weekends = AlarmDays(rawValue: 0x41)

    private static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    private static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Whether the alarm rings on `weekday` (0 is Sunday).
    public func contains(weekday: Int) -> Bool { contains(AlarmDays(weekday: weekday)) }

    /// Why a text is no days, in words for the CLI.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public init(parsing text: String) throws(ParseError) {
        let bad = ParseError(description: "days are daily, weekdays, weekends, mon-fri, sat,sun or single days (mon, tue, …), not '\(StationText.printable(String(text.prefix(64))))'")
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !typed.isEmpty, typed.utf8.count <= 64 else { throw bad }
        switch typed {
        case "daily", "every day", "everyday", "all": self = .daily; return
        case "weekdays": self = .weekdays; return
        case "weekends", "weekend": self = .weekends; return
        default: break
        }
        var days = AlarmDays()
        for item in typed.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard ends.count == 1 || ends.count == 2 else { throw bad }
            var numbers: [Int] = []
            for end in ends {
                guard let day = Self.names.firstIndex(of: end) ?? Self.fullNames.firstIndex(of: end) else { throw bad }
                numbers.append(day)
            }
            var day = numbers[0]
            let last = numbers[numbers.count - 1]
            days.insert(AlarmDays(weekday: day))
            while day != last {
                day = (day + 1) % 7
                days.insert(AlarmDays(weekday: day))
            }
        }
        self = days
    }

    /// `daily`, `mon-fri`, `sat,sun`, `mon,wed-fri`: the shortest form, Monday first.
    public var description: String {
        if self == .daily { return "daily" }
        if isEmpty { return "never" }
        // Monday first: runs are found over mon…sun.
        let order = [1, 2, 3, 4, 5, 6, 0]
        var parts: [String] = []
        var index = 0
        while index < order.count {
            guard contains(weekday: order[index]) else { index += 1; continue }
            var end = index
            while end + 1 < order.count, contains(weekday: order[end + 1]) { end += 1 }
            if end - index >= 2 {
                parts.append(Self.names[order[index]] + "-" + Self.names[order[end]])
            } else {
                parts += order[index...end].map { Self.names[$0] }
            }
            index = end + 1
        }
        return parts.joined(separator: ",")
    }
}
