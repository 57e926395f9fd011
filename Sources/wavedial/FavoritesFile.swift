import Foundation
import PrintableText
import WavedialConfig
import WavedialCore

/// The favorites file formats: the JSON that `fav export` writes, and M3U playlists.
enum FavoritesFile {
    enum ParseError: Error, CustomStringConvertible {
        case notJSON(String)
        case emptyPlaylist

        var description: String {
            switch self {
            case .notJSON(let detail): return "not a favorites file: \(detail)"
            case .emptyPlaylist: return "the playlist holds no stream URL"
            }
        }
    }

    /// An extended M3U playlist of `stations`.
    static func m3u(_ stations: [Station]) -> String {
        var text = "#EXTM3U\n"
        for station in stations {
            text += "#EXTINF:-1,\(StationText.printable(station.name))\n\(StationText.printable(station.url))\n"
        }
        return text
    }

    /// The stations in a JSON export (ordered by `position` when present) or an M3U
    /// playlist (stations looked up in `catalog` by URL; unknown ones kept by name and URL).
    static func parse(_ data: Data, catalog: WavedialDatabase) throws -> [Station] {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("[") {
            struct Entry: Decodable {
                let station: Station
                let position: Int?
                private enum Key: String, CodingKey { case position }
                init(from decoder: Decoder) throws {
                    station = try Station(from: decoder)
                    position = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: .position)
                }
            }
            do {
                let entries = try JSONDecoder().decode([Entry].self, from: data)
                return entries.enumerated()
                    .sorted { ($0.element.position ?? $0.offset, $0.offset) < ($1.element.position ?? $1.offset, $1.offset) }
                    .map(\.element.station)
            } catch let error as DecodingError {
                throw ParseError.notJSON(Self.describe(error))
            }
        }
        var stations: [Station] = []
        var pendingName: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#EXTINF") {
                pendingName = line.split(separator: ",", maxSplits: 1).dropFirst().first.map { StationText.printable(String($0)) }
            } else if !line.isEmpty, !line.hasPrefix("#") {
                stations.append(try station(url: StationText.printable(line), name: pendingName, catalog: catalog))
                pendingName = nil
            }
        }
        guard !stations.isEmpty else { throw ParseError.emptyPlaylist }
        return stations
    }

    private static func station(url: String, name: String?, catalog: WavedialDatabase) throws -> Station {
        if let known = try catalog.station(streamURL: url) { return known }
        // Not in the catalog: keep it as its own station, with an id derived from the URL so
        // that importing the same playlist twice does not duplicate it.
        var station = Station(stationuuid: syntheticUUID(for: url), name: name ?? url, url: url)
        station.codec = ""
        return station
    }

    static func syntheticUUID(for url: String) -> String {
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
