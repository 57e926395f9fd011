import Foundation
import PrintableText

/// The time of day an alarm rings, on the local wall clock: `07:00`, `7:05`, `06:30:15` (24-hour; seconds
/// are optional). Parsed from hostile text: at most 16 characters, each field in range.
public struct AlarmTime: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// - Returns: nil when a field is out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Why a text is not a time, in words for the CLI.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// `HH:MM` or `HH:MM:SS`, 24-hour, one or two digits for the hour.
    public init(parsing text: String) throws(ParseError) {
        let bad = ParseError(description: "an alarm time is HH:MM (24-hour, e.g. 07:00 or 18:45), not '\(StationText.printable(String(text.prefix(16))))'")
        let typed = text.trimmingCharacters(in: .whitespaces)
        guard typed.utf8.count <= 16 else { throw bad }
        let fields = typed.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { throw bad }
        var numbers: [Int] = []
        for (index, field) in fields.enumerated() {
            let limit = index == 0 ? 1...2 : 2...2
            guard limit.contains(field.utf8.count), field.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let number = Int(field) else { throw bad }
            numbers.append(number)
        }
        guard let time = AlarmTime(hour: numbers[0], minute: numbers[1], second: numbers.count == 3 ? numbers[2] : 0) else { throw bad }
        self = time
    }

    /// Seconds since midnight on the wall clock.
    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    /// `07:00`, or `07:00:15` when it has seconds.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(hour) + ":" + two(minute) + (second == 0 ? "" : ":" + two(second))
    }

    public static func < (lhs: AlarmTime, rhs: AlarmTime) -> Bool { lhs.secondOfDay < rhs.secondOfDay }
}
