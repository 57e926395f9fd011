import Foundation
import GRDB

extension DatabaseDateEncodingStrategy {
    /// GRDB's own storage text for dates, "yyyy-MM-dd HH:mm:ss.SSS" in UTC (to the nearest millisecond),
    /// written without `DateFormatter`. GRDB's default formats through ICU, whose first use maps
    /// locale, calendar, number and currency data (about 5 MB resident) into the daemon when it
    /// records the first play. The text is the same, so rows written before read back unchanged.
    static let storageText = DatabaseDateEncodingStrategy.custom { StoredDate.text($0) }
}

extension DatabaseDateDecodingStrategy {
    /// Reads ``DatabaseDateEncodingStrategy/storageText`` without GRDB's `Calendar`, whose locale
    /// lookups bring in ICU; anything else (a number, another SQLite date form) is GRDB's to read.
    static let storageText = DatabaseDateDecodingStrategy.custom { value in
        String.fromDatabaseValue(value).flatMap(StoredDate.date(from:)) ?? Date.fromDatabaseValue(value)
    }
}

/// Dates as the database stores them.
enum StoredDate {
    /// The date of a "yyyy-MM-dd HH:mm:ss.SSS" text in UTC, nil for any other text.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 23 else { return nil }
        var fields: [Int] = []
        var index = 0
        for (width, separator) in [(4, "-"), (2, "-"), (2, " "), (2, ":"), (2, ":"), (2, "."), (3, "")] {
            var value = 0
            for byte in bytes[index..<index + width] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += width
            if let mark = separator.utf8.first {
                guard bytes[index] == mark else { return nil }
                index += 1
            }
            fields.append(value)
        }
        var parts = tm()
        parts.tm_year = Int32(fields[0] - 1900)
        parts.tm_mon = Int32(fields[1] - 1)
        parts.tm_mday = Int32(fields[2])
        parts.tm_hour = Int32(fields[3])
        parts.tm_min = Int32(fields[4])
        parts.tm_sec = Int32(fields[5])
        guard (1...12).contains(fields[1]), (1...31).contains(fields[2]), fields[3] < 24, fields[4] < 60, fields[5] < 61
        else { return nil }
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(fields[6]) / 1000)
    }

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
