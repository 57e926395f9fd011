import CurlSupport

/// Turns a playlist body into the stream URLs it lists, in order, resolved against the playlist's own URL.
///
/// The player tries the entries one after another until one plays. Pure functions: any thread.
public enum PlaylistResolver {
    /// Playlists longer than this are cut here (a station playlist is a few hundred bytes).
    public static let maximumBodyLength = 64 * 1024

    /// Playlists may point to playlists; this deep and no deeper.
    public static let maximumDepth = 3

    /// Entries tried at most, the first ones of a list (and over nested lists together): a station
    /// lists a few mirrors, and each dead entry costs a connect timeout.
    public static let maximumEntries = 16

    /// The entries of `body`, as absolute URL strings, at most ``maximumEntries``; empty when it lists none.
    public static func entries(in body: [UInt8], kind: PlaylistKind, baseURL: String) -> [String] {
        let text = decode(Array(body.prefix(maximumBodyLength)))
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        let raw: [String]
        switch kind {
        case .pls:
            raw = plsEntries(lines)
        case .m3u:
            raw = lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        var seen = Set<String>()
        var result: [String] = []
        for entry in raw where result.count < maximumEntries {
            if let url = absolute(entry, base: baseURL), seen.insert(url).inserted { result.append(url) }
        }
        return result
    }

    /// `FileN=url` lines, ordered by N (entries are numbered, not always in order).
    private static func plsEntries(_ lines: [String]) -> [String] {
        var numbered: [(Int, String)] = []
        for line in lines {
            guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "=") else { continue }
            let number = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals].trimmingWhitespace()) ?? Int.max
            numbered.append((number, String(line[line.index(after: equals)...]).trimmingWhitespace()))
        }
        return numbered.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    private static func absolute(_ entry: String, base: String) -> String? {
        guard !entry.isEmpty else { return nil }
        if let scheme = CurlURL.scheme(of: entry) {
            return scheme == "http" || scheme == "https" ? entry : nil
        }
        return CurlURL.resolve(entry, against: base)
    }

    /// UTF-8 (without a byte-order mark) when valid, else Latin-1.
    private static func decode(_ bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self) ?? String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
    }
}
