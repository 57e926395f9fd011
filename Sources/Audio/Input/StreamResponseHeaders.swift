/// The header fields of a station's response, collected from the lines libcurl hands over one at a time.
///
/// A status line (`HTTP/…`, SHOUTcast's `ICY 200 OK`) starts a new response, so after redirects only the
/// final one's fields are kept. `Name: value` lines are kept by lowercased name, the last value winning;
/// other lines are ignored. Everything is bounded, so a hostile server's flood of fields or huge values
/// costs a few kilobytes: at most ``maximumFields`` names (later new names are dropped), names of at most
/// ``maximumNameLength`` and values cut at ``maximumValueLength`` Unicode scalars. Pure: any thread.
public struct StreamResponseHeaders: Sendable {
    /// The most distinct fields kept (a station sends about 15).
    public static let maximumFields = 64
    /// The longest name kept; a longer one is not a field anything reads.
    public static let maximumNameLength = 64
    /// The longest value kept, in Unicode scalars; longer values are cut.
    public static let maximumValueLength = 1024

    /// The final response's fields, by lowercased name.
    public private(set) var fields: [String: String] = [:]

    public init() {}

    /// Takes one header line, without its line break.
    public mutating func add(line: String) {
        if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
            fields.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingWhitespace().lowercased()
        guard !name.isEmpty, name.unicodeScalars.count <= Self.maximumNameLength else { return }
        guard fields[name] != nil || fields.count < Self.maximumFields else { return }
        // Cut before trimming (a 100 KB line costs no more than a short one), and again after.
        let value = line[line.index(after: colon)...].unicodeScalars.prefix(Self.maximumValueLength + 1)
        let trimmed = String(String.UnicodeScalarView(value)).trimmingWhitespace()
        fields[name] = String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(Self.maximumValueLength)))
    }
}
