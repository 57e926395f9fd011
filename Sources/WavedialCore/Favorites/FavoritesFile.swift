import Foundation
import PrintableText

/// The favorites file formats: the JSON that `fav export` writes, and M3U playlists.
///
/// A file to import may come from anywhere: at most ``maximumBytes`` are read and ``maximumEntries``
/// taken, a file past either is refused whole, and every name and URL comes out without control or
/// bidi characters (``Station/printable()``). Pure functions: any thread.
public enum FavoritesFile {
    /// The largest file read: 1 MiB (an export of 1000 favorites is about 600 KB).
    public static let maximumBytes = 1 << 20
    /// The most entries a file may hold.
    public static let maximumEntries = 1000

    /// One favorite as the file names it.
    public enum Entry: Equatable, Sendable {
        /// A station record of a JSON export.
        case station(Station)
        /// A playlist entry: its stream URL and the name of its `#EXTINF` line, if any.
        case stream(url: String, name: String?)
    }

    /// Why a file was refused; nothing of it is imported.
    public enum ParseError: Error, CustomStringConvertible, Equatable {
        case tooLarge
        case tooManyEntries
        case notJSON(String)
        case missingField(entry: Int, field: String)
        case notAURL(line: Int)
        case emptyPlaylist

        public var description: String {
            switch self {
            case .tooLarge: return "larger than 1 MiB, the most a favorites file may be"
            case .tooManyEntries: return "more than \(FavoritesFile.maximumEntries) entries, the most a favorites file may hold"
            case .notJSON(let detail): return "not a favorites file: \(detail)"
            case .missingField(let entry, let field): return "entry \(entry) has no \(field)"
            case .notAURL(let line): return "line \(line) is neither a comment nor a stream URL"
            case .emptyPlaylist: return "the playlist holds no stream URL"
            }
        }
    }

    /// The first ``maximumBytes`` + 1 bytes of the file at `path` (so that ``parse(_:)`` can tell a file
    /// over the limit), never more, whatever the file is (`/dev/zero` too).
    /// - Throws: the file-system error when it cannot be opened or read.
    public static func read(path: String) throws -> Data {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var data = Data()
        while data.count <= maximumBytes, let chunk = try handle.read(upToCount: maximumBytes + 1 - data.count), !chunk.isEmpty {
            data.append(chunk)
        }
        return data
    }

    /// The entries of a JSON export (ordered by `position` when present) or an M3U playlist.
    /// - Throws: ``ParseError`` for a file over the limits, not JSON nor M3U, or with an entry lacking its
    ///   uuid or URL: the whole file is refused.
    public static func parse(_ data: Data) throws -> [Entry] {
        guard data.count <= maximumBytes else { throw ParseError.tooLarge }
        var body = data
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // a byte-order mark
        let text = String(decoding: body, as: UTF8.self)
        if text.drop(while: \.isWhitespace).hasPrefix("[") { return try parseJSON(Data(body)) }
        return try parseM3U(text)
    }

    private static func parseJSON(_ data: Data) throws -> [Entry] {
        struct Record: Decodable {
            let station: Station
            let position: Int?
            private enum Key: String, CodingKey { case position }
            init(from decoder: Decoder) throws {
                station = try Station(from: decoder)
                position = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: .position)
            }
        }
        let records: [Record]
        do {
            records = try JSONDecoder().decode([Record].self, from: data)
        } catch let error as DecodingError {
            throw ParseError.notJSON(describe(error))
        }
        guard records.count <= maximumEntries else { throw ParseError.tooManyEntries }
        var stations: [Station] = []
        for (offset, record) in records.enumerated() {
            let station = record.station.printable()
            guard !station.stationuuid.isEmpty else { throw ParseError.missingField(entry: offset + 1, field: "stationuuid") }
            guard !station.url.isEmpty else { throw ParseError.missingField(entry: offset + 1, field: "url") }
            stations.append(station)
        }
        let order = records.indices.sorted { (records[$0].position ?? $0, $0) < (records[$1].position ?? $1, $1) }
        return order.map { .station(stations[$0]) }
    }

    private static func parseM3U(_ text: String) throws -> [Entry] {
        var entries: [Entry] = []
        var pendingName: String?
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXTINF") {
                pendingName = line.split(separator: ",", maxSplits: 1).dropFirst().first.map { clean(String($0)) }
            } else if !line.isEmpty, !line.hasPrefix("#") {
                let url = clean(line)
                guard isURL(url) else { throw ParseError.notAURL(line: offset + 1) }
                guard entries.count < maximumEntries else { throw ParseError.tooManyEntries }
                entries.append(.stream(url: url, name: pendingName.flatMap { $0.isEmpty ? nil : $0 }))
                pendingName = nil
            }
        }
        guard !entries.isEmpty else { throw ParseError.emptyPlaylist }
        return entries
    }

    private static func clean(_ text: String) -> String {
        StationText.printable(text).trimmingCharacters(in: .whitespaces)
    }

    /// `scheme://…` with a scheme as RFC 3986 spells it.
    static func isURL(_ text: String) -> Bool {
        guard let colon = text.range(of: "://"), colon.lowerBound > text.startIndex, colon.upperBound < text.endIndex else {
            return false
        }
        let scheme = text[..<colon.lowerBound].unicodeScalars
        guard let first = scheme.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return scheme.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// An extended M3U playlist of `stations`, names and URLs without control or bidi characters (a
    /// line break would end the line).
    public static func m3u(_ stations: [Station]) -> String {
        var text = "#EXTM3U\n"
        for station in stations {
            text += "#EXTINF:-1,\(StationText.printable(station.name))\n\(StationText.printable(station.url))\n"
        }
        return text
    }

    /// `entries` written back as favorites files that ``parse(_:)`` reads as them, each at most about
    /// `maximumBytes` (an entry larger than that is a file of its own): a JSON export for station records, an
    /// M3U playlist for stream entries. The CLI hands a running daemon an import this way, a request at a time.
    public static func texts(of entries: [Entry], maximumBytes: Int) -> [String] {
        var texts: [String] = []
        var stations: [Station] = []
        var streams: [(url: String, name: String?)] = []
        var size = 0
        func flush() {
            if !stations.isEmpty, let json = try? JSONEncoder().encode(stations) { texts.append(String(decoding: json, as: UTF8.self)) }
            if !streams.isEmpty {
                texts.append("#EXTM3U\n" + streams.map { "#EXTINF:-1,\($0.name ?? "")\n\($0.url)\n" }.joined())
            }
            stations = []
            streams = []
            size = 0
        }
        for entry in entries {
            let cost: Int
            switch entry {
            case .station(let station): cost = (try? JSONEncoder().encode(station).count) ?? 0
            case .stream(let url, let name): cost = url.utf8.count + (name?.utf8.count ?? 0) + 16
            }
            let kindChanges: Bool
            switch entry {
            case .station: kindChanges = !streams.isEmpty
            case .stream: kindChanges = !stations.isEmpty
            }
            if kindChanges || (size > 0 && size + cost > maximumBytes) { flush() }
            switch entry {
            case .station(let station): stations.append(station)
            case .stream(let url, let name): streams.append((url, name))
            }
            size += cost
        }
        flush()
        return texts
    }

    /// The stationuuid of a playlist entry the catalog does not know, derived from its URL (FNV-1a,
    /// two seeds, in UUID form), so that importing the same playlist twice does not duplicate it.
    public static func syntheticUUID(for url: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        let hex = String(format: "%016llx%016llx", fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4))
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "record \(context.codingPath.first?.intValue.map { "\($0 + 1)" } ?? "?") lacks '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
