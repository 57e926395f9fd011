import Foundation
import GRDB

extension DatabaseDateEncodingStrategy {
    /// GRDB's own storage text for dates, "yyyy-MM-dd HH:mm:ss.SSS" in UTC (to the nearest millisecond),
    /// written without `DateFormatter`. GRDB's default formats through ICU, whose first use maps
    /// locale, calendar, number and currency data (about 5 MB resident) into the daemon when it
    /// records the first play. The text is the same, so rows written before read back unchanged.
    static let storageText = DatabaseDateEncodingStrategy.custom { StoredDate.text($0) }
}

/// Dates as the database stores them.
enum StoredDate {
    /// `date` as "yyyy-MM-dd HH:mm:ss.SSS" in UTC; nil outside the years 0001–9999.
    static func text(_ date: Date) -> String? {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)  // halves up, as ICU
        guard milliseconds.isFinite, abs(milliseconds) < 3e14 else { return nil }
        let total = Int64(milliseconds)
        let fraction = Int(((total % 1000) + 1000) % 1000)
        var seconds = time_t((total - Int64(fraction)) / 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        let year = Int(parts.tm_year) + 1900
        guard (1...9999).contains(year) else { return nil }
        return padded(year, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-" + padded(Int(parts.tm_mday), 2) + " "
            + padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2)
            + "." + padded(fraction, 3)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
