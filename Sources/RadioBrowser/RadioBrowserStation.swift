import Foundation
import PrintableText
import WavedialCore

/// One station record as Radio Browser's `/json/stations` sends it, read leniently:
/// a missing or oddly typed optional field (`"bitrate": "128"`, `"geo_lat": null`) does not
/// lose the station; only `stationuuid` and `url` are required.
///
/// Read through `JSONSerialization` rather than `Decodable`: with this many optional,
/// loosely typed fields, trial decoding made a 50,000-station sync several times slower.
public enum RadioBrowserStation {
    /// Why a record was rejected.
    public enum RecordError: Error, Equatable {
        /// The bytes are not a JSON object.
        case malformed
        /// A required field is missing or empty.
        case missing(String)
    }

    /// Names longer than this many characters are cut (ending in "…"), as imported favorites' are.
    public static let maximumNameLength = Station.maximumNameLength

    /// The station in one JSON object's bytes.
    public static func decode(_ bytes: [UInt8]) throws -> Station {
        try decodeRepairing(bytes).station
    }

    /// The station in one JSON object's bytes, and whether it had to be repaired: an impossible
    /// position (latitude beyond ±90°, longitude beyond ±180°, NaN, infinity, not a number) is
    /// dropped, control and bidi characters leave the texts (``StationText/printable(_:)``), an overlong name is cut.
    public static func decodeRepairing(_ bytes: [UInt8]) throws -> (station: Station, repaired: Bool) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw RecordError.malformed
        }
        guard let fields = object as? [String: Any] else { throw RecordError.malformed }
        var repaired = false
        let station = try station(fields, repaired: &repaired)
        return (station, repaired)
    }

    /// `value` without surrounding white space; cheap for the common case of none.
    private static func trimmed(_ value: String) -> String {
        guard let first = value.first, let last = value.last, first.isWhitespace || last.isWhitespace else { return value }
        return value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func station(_ fields: [String: Any], repaired: inout Bool) throws -> Station {
        var changed = false
        func text(_ key: String) -> String {
            switch fields[key] {
            case let value as String:
                let clean = StationText.printable(value)
                if clean != value { changed = true }
                return trimmed(clean)
            case let value as NSNumber: return value.stringValue
            default: return ""
            }
        }
        func number(_ key: String) -> Int {
            switch fields[key] {
            case let value as NSNumber:
                let double = value.doubleValue
                return double.isFinite && abs(double) < 1e15 ? Int(double) : 0
            case let value as String: return Int(value.trimmingCharacters(in: .whitespaces)) ?? 0
            default: return 0
            }
        }
        func flag(_ key: String, default fallback: Bool) -> Bool {
            switch fields[key] {
            case let value as NSNumber: return value.doubleValue != 0
            case let value as String: return ["1", "true"].contains(value.lowercased())
            default: return fallback
            }
        }
        func degrees(_ key: String, within limit: Double) -> Double? {
            let value: Double?
            switch fields[key] {
            case nil, is NSNull: return nil
            case let number as NSNumber: value = number.doubleValue
            case let text as String where text.trimmingCharacters(in: .whitespaces).isEmpty: return nil
            case let text as String: value = Double(text.trimmingCharacters(in: .whitespaces))
            default: value = nil
            }
            guard let value, value.isFinite, abs(value) <= limit else {
                changed = true
                return nil
            }
            return value
        }
        let uuid = text("stationuuid").lowercased()
        let url = text("url")
        guard !uuid.isEmpty else { throw RecordError.missing("stationuuid") }
        guard !url.isEmpty else { throw RecordError.missing("url") }
        var name = text("name")
        // Counting characters walks the grapheme clusters; the UTF-8 length bounds it and is free.
        if name.utf8.count > maximumNameLength, name.count > maximumNameLength {
            name = String(name.prefix(maximumNameLength - 1)).trimmingCharacters(in: .whitespaces) + "…"
            changed = true
        }
        var station = Station(stationuuid: uuid, name: name.isEmpty ? url : name, url: url)
        station.urlResolved = text("url_resolved")
        station.homepage = text("homepage")
        station.favicon = text("favicon")
        station.tags = text("tags")
        station.country = text("country")
        station.countrycode = text("countrycode").uppercased()
        station.state = text("state")
        station.language = text("language")
        station.languagecodes = text("languagecodes")
        station.codec = text("codec")
        station.bitrate = max(0, number("bitrate"))
        station.hls = flag("hls", default: false)
        station.lastcheckok = flag("lastcheckok", default: true)
        station.geoLat = degrees("geo_lat", within: 90)
        station.geoLong = degrees("geo_long", within: 180)
        station.votes = number("votes")
        station.clickcount = number("clickcount")
        let changedAt = text("lastchangetime_iso8601")
        station.lastchangetime = changedAt.isEmpty ? text("lastchangetime") : changedAt
        repaired = changed
        return station
    }
}
