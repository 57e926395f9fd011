import Audio
import Foundation
import PrintableText
import WavedialConfig
import WavedialCore

/// A station as the CLI prints it in JSON: Radio Browser's field names, plus
/// `distance_km` and `frequency_mhz` where they are known, and in `stations show` its measured
/// loudness (`loudness_lufs`, null while never measured).
struct StationListing: Encodable {
    var station: Station
    var distanceKm: Double?
    var frequencyMHz: Double?
    var position: Int?
    var favorite: Bool?
    /// Whether `loudness_lufs` is written (as null when ``loudnessLUFS`` is nil).
    var showsLoudness = false
    var loudnessLUFS: Double?

    private enum ExtraKey: String, CodingKey {
        case distanceKm = "distance_km"
        case frequencyMHz = "frequency_mhz"
        case loudnessLUFS = "loudness_lufs"
        case position, favorite
    }

    func encode(to encoder: Encoder) throws {
        try station.encode(to: encoder)
        var extra = encoder.container(keyedBy: ExtraKey.self)
        try extra.encodeIfPresent(distanceKm.map { ($0 * 10).rounded() / 10 }, forKey: .distanceKm)
        try extra.encodeIfPresent(frequencyMHz, forKey: .frequencyMHz)
        try extra.encodeIfPresent(position, forKey: .position)
        try extra.encodeIfPresent(favorite, forKey: .favorite)
        if showsLoudness { try extra.encode(loudnessLUFS.map { ($0 * 10).rounded() / 10 }, forKey: .loudnessLUFS) }
    }
}

/// Writing what commands print: JSON for scripts, aligned columns and lines for people. What they print
/// names what came from outside (stations' names and titles, servers, rows an older wavedial stored before
/// it cleaned them), so nothing is printed that a terminal would act on.
enum Output {
    static func json<T: Encodable>(_ value: T, pretty: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(terminalSafe(json: String(decoding: try encoder.encode(value), as: UTF8.self)))
    }

    /// `json` with what JSON leaves raw but a terminal acts on or reorders (DEL, the C1 controls, bidi
    /// characters: ``StationText/isUnprintable(_:)``) written as `\uXXXX` escapes; the encoders already
    /// escape the C0 controls. Such scalars stand only inside strings, so the JSON means the same.
    static func terminalSafe(json: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x7E && StationText.isUnprintable(scalar) }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Prints one line for people without control or bidi characters (``StationText/printable(_:)``).
    static func line(_ text: String) {
        print(StationText.printable(text))
    }

    /// Prints rows as columns padded to their widest cell (by characters, not bytes). Cells hold what
    /// stations sent (names, titles, URLs), so they are printed without control or bidi characters: a
    /// name stored by an older wavedial, before syncs cleaned them, must not drive the terminal either.
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
