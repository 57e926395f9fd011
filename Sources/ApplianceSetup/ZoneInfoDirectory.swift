import Foundation

/// The tz database's folder (`/usr/share/zoneinfo`): which time zone names exist, the country codes
/// (`iso3166.tab`) and the zones' positions (``ZoneTable``, `zone1970.tab`). Tables missing or unreadable
/// read as nil: the checks that need them are then skipped or say so. Read once, at construction.
public struct ZoneInfoDirectory: Sendable {
    /// The default folder, as Debian's tzdata installs it.
    public static let defaultPath = "/usr/share/zoneinfo"

    public let path: String
    /// The two-letter codes of `iso3166.tab`, nil when the file cannot be read.
    public let countryCodes: Set<String>?
    /// `zone1970.tab`, nil when it cannot be read.
    public let zoneTable: ZoneTable?

    public init(path: String = ZoneInfoDirectory.defaultPath) {
        self.path = path
        countryCodes = (try? String(contentsOfFile: path + "/iso3166.tab", encoding: .utf8)).map { text in
            Set(text.split(whereSeparator: \.isNewline).compactMap { line in
                guard !line.hasPrefix("#"), let code = line.split(separator: "\t").first, code.utf8.count == 2 else { return nil }
                return String(code)
            })
        }
        zoneTable = (try? String(contentsOfFile: path + "/zone1970.tab", encoding: .utf8)).map(ZoneTable.init(text:))
    }

    /// Whether `name` (already checked by ``SetupRules/timezoneNameProblem(_:)``) is a time zone here: a regular
    /// file (links followed) that starts as compiled zone data does (`TZif`), which the tables beside them do not.
    public func hasZone(_ name: String) -> Bool {
        let file = path + "/" + name
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data("TZif".utf8)
    }
}
