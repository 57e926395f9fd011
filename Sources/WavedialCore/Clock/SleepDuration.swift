import Foundation
import PrintableText

/// How long the sleep timer runs, as typed: `90s`, `30m`, `1h`, `1h30m`, `2h5m10s`, or a bare number of minutes
/// (`45`). Hostile text (a control request, the command line): at most ``maximumTextLength`` characters, each
/// unit at most once and in the order h, m, s, every number checked before it is multiplied.
public enum SleepDuration {
    /// The longest timer: a day.
    public static let maximumSeconds = 24 * 3600
    /// The longest text looked at.
    public static let maximumTextLength = 32

    /// Why a text is not a duration, in words for the CLI.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The seconds `text` means, 1 to ``maximumSeconds``.
    public static func seconds(_ text: String) throws(ParseError) -> Int {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let bad = ParseError(description: "a sleep time is like 90s, 30m, 1h or 1h30m (at most 24h), not '\(StationText.printable(String(text.prefix(maximumTextLength))))'")
        guard !typed.isEmpty, typed.utf8.count <= maximumTextLength else { throw bad }
        if typed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let minutes = Int(typed), minutes >= 1, minutes <= maximumSeconds / 60 else { throw bad }
            return minutes * 60
        }
        var total = 0
        var number: Int?
        var lastUnit = Int.max
        for byte in typed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                let (times, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, times <= maximumSeconds else { throw bad }
                number = times + digit
            case UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                let unit = byte == UInt8(ascii: "h") ? 3600 : byte == UInt8(ascii: "m") ? 60 : 1
                guard let value = number, unit < lastUnit, value <= maximumSeconds / unit else { throw bad }
                total += value * unit
                guard total <= maximumSeconds else { throw bad }
                lastUnit = unit
                number = nil
            default:
                throw bad
            }
        }
        guard number == nil, total >= 1 else { throw bad }
        return total
    }

    /// `seconds` as the CLI prints it: `1h30m`, `29m59s`, `45s`; `0s` for none left.
    public static func text(_ seconds: Int) -> String {
        let seconds = max(seconds, 0)
        var parts = ""
        if seconds >= 3600 { parts += "\(seconds / 3600)h" }
        if seconds % 3600 >= 60 { parts += "\(seconds % 3600 / 60)m" }
        if seconds % 60 > 0 || parts.isEmpty { parts += "\(seconds % 60)s" }
        return parts
    }
}
