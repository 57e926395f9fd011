import Foundation
import WavedialCore

/// One station record as Radio Browser's `/json/stations` sends it, decoded leniently:
/// a missing or oddly typed optional field (`"bitrate": "128"`, `"geo_lat": null`) does not
/// lose the station; only `stationuuid`, `name` and `url` are required.
struct RadioBrowserStation: Decodable {
    let station: Station

    private enum Key: String, CodingKey {
        case stationuuid, name, url, homepage, favicon, tags, country, countrycode, state, language,
             languagecodes, codec, bitrate, hls, lastcheckok, votes, clickcount, lastchangetime
        case urlResolved = "url_resolved"
        case geoLat = "geo_lat"
        case geoLong = "geo_long"
        case lastchangetimeISO = "lastchangetime_iso8601"
    }

    /// Why a record was rejected.
    enum RecordError: Error { case missing(String) }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func text(_ key: Key) -> String {
            if let value = try? c.decodeIfPresent(String.self, forKey: key) { return value.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let value = try? c.decodeIfPresent(Int.self, forKey: key) { return String(value) }
            return ""
        }
        func number(_ key: Key) -> Int {
            if let value = try? c.decodeIfPresent(Int.self, forKey: key) { return value }
            if let value = try? c.decodeIfPresent(Double.self, forKey: key), value.isFinite, abs(value) < 1e15 { return Int(value) }
            if let value = try? c.decodeIfPresent(String.self, forKey: key) { return Int(value) ?? 0 }
            return 0
        }
        func flag(_ key: Key, default fallback: Bool) -> Bool {
            if let value = try? c.decodeIfPresent(Bool.self, forKey: key) { return value }
            if let value = try? c.decodeIfPresent(Int.self, forKey: key) { return value != 0 }
            return fallback
        }
        func degrees(_ key: Key) -> Double? {
            if let value = try? c.decodeIfPresent(Double.self, forKey: key) { return value.isFinite ? value : nil }
            if let value = try? c.decodeIfPresent(String.self, forKey: key) { return Double(value) }
            return nil
        }
        let uuid = text(.stationuuid).lowercased()
        let name = text(.name)
        let url = text(.url)
        guard !uuid.isEmpty else { throw RecordError.missing("stationuuid") }
        guard !url.isEmpty else { throw RecordError.missing("url") }
        var station = Station(stationuuid: uuid, name: name.isEmpty ? url : name, url: url)
        station.urlResolved = text(.urlResolved)
        station.homepage = text(.homepage)
        station.favicon = text(.favicon)
        station.tags = text(.tags)
        station.country = text(.country)
        station.countrycode = text(.countrycode).uppercased()
        station.state = text(.state)
        station.language = text(.language)
        station.languagecodes = text(.languagecodes)
        station.codec = text(.codec)
        station.bitrate = max(0, number(.bitrate))
        station.hls = flag(.hls, default: false)
        station.lastcheckok = flag(.lastcheckok, default: true)
        station.geoLat = degrees(.geoLat)
        station.geoLong = degrees(.geoLong)
        station.votes = number(.votes)
        station.clickcount = number(.clickcount)
        let changed = text(.lastchangetimeISO)
        station.lastchangetime = changed.isEmpty ? text(.lastchangetime) : changed
        self.station = station
    }
}
