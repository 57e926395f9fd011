import Audio
import Foundation
import WavedialConfig
import WavedialCore

/// A station as the CLI prints it in JSON: Radio Browser's field names, plus
/// `distance_km` and `frequency_mhz` where they are known.
struct StationListing: Encodable {
    var station: Station
    var distanceKm: Double?
    var frequencyMHz: Double?
    var position: Int?
    var favorite: Bool?

    private enum ExtraKey: String, CodingKey {
        case distanceKm = "distance_km"
        case frequencyMHz = "frequency_mhz"
        case position, favorite
    }

    func encode(to encoder: Encoder) throws {
        try station.encode(to: encoder)
        var extra = encoder.container(keyedBy: ExtraKey.self)
        try extra.encodeIfPresent(distanceKm.map { ($0 * 10).rounded() / 10 }, forKey: .distanceKm)
        try extra.encodeIfPresent(frequencyMHz, forKey: .frequencyMHz)
        try extra.encodeIfPresent(position, forKey: .position)
        try extra.encodeIfPresent(favorite, forKey: .favorite)
    }
}

/// Writing what commands print: JSON for scripts, aligned columns for people.
enum Output {
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Prints rows as columns padded to their widest cell (by characters, not bytes). Cells hold what
    /// stations sent (names, titles, URLs), so they are printed without control characters: a name
    /// stored by an older wavedial, before syncs cleaned them, must not drive the terminal either.
    static func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows.map { $0.map(StationText.printable) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        for row in all {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            print(cells.joined(separator: "  "))
        }
    }

    static func distance(_ km: Double?) -> String {
        guard let km else { return "-" }
        return km < 10 ? String(format: "%.1f km", km) : String(format: "%.0f km", km)
    }

    static func codec(_ station: Station) -> String {
        let codec = station.codec.isEmpty ? "?" : station.codec
        return station.bitrate > 0 ? "\(codec) \(station.bitrate)k" : codec
    }
}
