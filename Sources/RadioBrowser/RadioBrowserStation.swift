import Foundation
import PrintableText
import WavedialCore

/// One station record as Radio Browser's `/json/stations` sends it, read leniently:
/// a missing or oddly typed optional field (`"bitrate": "128"`, `"geo_lat": null`) does not
/// lose the station; only `stationuuid` (a UUID) and `url` are required.
///
/// Every text is bounded by the length Radio Browser's own database gives it (``FieldLimits``), with
/// room for the longest real values: a longer one is cut (names, tags, places), dropped (a homepage,
/// a favicon, a resolved URL or a codec list cut short would be wrong) or, for the stream URL, costs
/// the record.
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
        /// A required field is there but unusable: a `stationuuid` that is not a UUID, a `url` too long.
        case invalid(String)
    }

    /// Names longer than this many characters are cut (ending in "…"), as imported favorites' are.
    public static let maximumNameLength = Station.maximumNameLength

    /// The longest texts kept, in characters. Radio Browser stores `country` as VARCHAR(250),
    /// `state` and `language` as VARCHAR(50), `codec` as VARCHAR(20), `countrycode` as 2 letters and the
    /// URLs, tags and language codes as TEXT; real records have stream URLs of 5,800 characters (tokens),
    /// favicons of 1,300, tag lists of 630 and language lists of 90.
    public enum FieldLimits {
        /// `url`: a longer one costs the record; `url_resolved`: a longer one is dropped.
        public static let url = 8192
        /// `homepage`, `favicon`: a longer one is dropped.
        public static let link = 4096
        /// `tags`: cut after the last whole tag that fits.
        public static let tags = 1000
        /// `country`, `state`, `language`, `languagecodes`: cut.
        public static let place = 250
        /// `codec`: a longer list is dropped (the player then finds out what the stream is).
        public static let codec = 20
        /// `countrycode`: anything but two characters is dropped.
        public static let countryCode = 2
        /// `lastchangetime`: a longer one is dropped.
        public static let timestamp = 40
    }

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
        /// `value` when it has at most `limit` characters, else "" (a cut link would be wrong).
        func dropped(_ value: String, over limit: Int) -> String {
            guard value.utf8.count > limit, value.count > limit else { return value }
            changed = true
            return ""
        }
        /// `value` cut to `limit` characters (at a separator when given), else as it is.
        func cut(_ value: String, to limit: Int, at separator: Character? = nil) -> String {
            guard value.utf8.count > limit, value.count > limit else { return value }
            changed = true
            var kept = value.prefix(limit)
            if let separator, let last = kept.lastIndex(of: separator) { kept = kept[..<last] }
            return kept.trimmingCharacters(in: .whitespaces)
        }
        let uuid = text("stationuuid").lowercased()
        let url = text("url")
        guard !uuid.isEmpty else { throw RecordError.missing("stationuuid") }
        guard isUUID(uuid) else { throw RecordError.invalid("stationuuid") }
        guard !url.isEmpty else { throw RecordError.missing("url") }
        guard url.utf8.count <= FieldLimits.url || url.count <= FieldLimits.url else { throw RecordError.invalid("url") }
        var name = text("name")
        // Counting characters walks the grapheme clusters; the UTF-8 length bounds it and is free.
        if name.utf8.count > maximumNameLength, name.count > maximumNameLength {
            name = String(name.prefix(maximumNameLength - 1)).trimmingCharacters(in: .whitespaces) + "…"
            changed = true
        }
        var station = Station(stationuuid: uuid, name: name.isEmpty ? url : name, url: url)
        station.urlResolved = dropped(text("url_resolved"), over: FieldLimits.url)
        station.homepage = dropped(text("homepage"), over: FieldLimits.link)
        station.favicon = dropped(text("favicon"), over: FieldLimits.link)
        station.tags = cut(text("tags"), to: FieldLimits.tags, at: ",")
        station.country = cut(text("country"), to: FieldLimits.place)
        station.countrycode = dropped(text("countrycode").uppercased(), over: FieldLimits.countryCode)
        station.state = cut(text("state"), to: FieldLimits.place)
        station.language = cut(text("language"), to: FieldLimits.place, at: ",")
        station.languagecodes = cut(text("languagecodes"), to: FieldLimits.place, at: ",")
        station.codec = dropped(text("codec"), over: FieldLimits.codec)
        station.bitrate = max(0, number("bitrate"))
        station.hls = flag("hls", default: false)
        station.lastcheckok = flag("lastcheckok", default: true)
        station.geoLat = degrees("geo_lat", within: 90)
        station.geoLong = degrees("geo_long", within: 180)
        station.votes = number("votes")
        station.clickcount = number("clickcount")
        let changedAt = text("lastchangetime_iso8601")
        station.lastchangetime = dropped(changedAt.isEmpty ? text("lastchangetime") : changedAt, over: FieldLimits.timestamp)
        repaired = changed
        return station
    }

    /// Whether `text` is a UUID in its canonical form, lower case: `8-4-4-4-12` hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
