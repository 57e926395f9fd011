import Foundation
import WavedialCore

/// Station records written for the tests (not copied from Radio Browser), and a way to
/// serve them in Radio Browser's JSON format.
public enum StationFixtures {
    /// A station with the fields the tests care about; the rest get plausible values.
    public static func station(
        _ uuid: String, _ name: String, lat: Double? = nil, lon: Double? = nil, country: String = "DE",
        codec: String = "MP3", tags: String = "", language: String = "", hls: Bool = false, ok: Bool = true, votes: Int = 0
    ) -> Station {
        var station = Station(stationuuid: uuid, name: name, url: "http://stream.example/\(uuid)")
        station.geoLat = lat
        station.geoLong = lon
        station.countrycode = country
        station.country = countryNames[country] ?? country
        station.codec = codec
        station.bitrate = 128
        station.tags = tags
        station.language = language
        station.hls = hls
        station.lastcheckok = ok
        station.votes = votes
        station.lastchangetime = "2025-06-01T12:00:00Z"
        return station
    }

    static let countryNames = ["DE": "Germany", "FR": "France", "AT": "Austria", "US": "The United States Of America",
                               "NZ": "New Zealand", "FJ": "Fiji", "BR": "Brazil", "RU": "The Russian Federation"]

    /// A uuid for the n-th generated station.
    public static func uuid(_ n: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", n)
    }

    /// `stations` as Radio Browser's `/json/stations` sends them (hls and lastcheckok as 0/1).
    public static func radioBrowserJSON(_ stations: [Station]) throws -> Data {
        let objects: [[String: Any]] = stations.map { station in
            [
                "changeuuid": UUID().uuidString.lowercased(), "stationuuid": station.stationuuid, "serveruuid": NSNull(),
                "name": station.name, "url": station.url, "url_resolved": station.urlResolved,
                "homepage": station.homepage, "favicon": station.favicon, "tags": station.tags,
                "country": station.country, "countrycode": station.countrycode, "iso_3166_2": NSNull(),
                "state": station.state, "language": station.language, "languagecodes": station.languagecodes,
                "votes": station.votes, "lastchangetime": "2025-06-01 12:00:00",
                "lastchangetime_iso8601": station.lastchangetime, "codec": station.codec, "bitrate": station.bitrate,
                "hls": station.hls ? 1 : 0, "lastcheckok": station.lastcheckok ? 1 : 0,
                "lastchecktime": "2025-06-01 12:00:00", "clickcount": station.clickcount, "clicktrend": 0,
                "ssl_error": 0, "geo_lat": station.geoLat.map { $0 as Any } ?? NSNull(),
                "geo_long": station.geoLong.map { $0 as Any } ?? NSNull(), "geo_distance": NSNull(), "has_extended_info": false,
            ]
        }
        return try JSONSerialization.data(withJSONObject: objects)
    }

    /// A catalog of `count` stations spread over the globe by a seeded generator, some
    /// without coordinates, some unplayable, some naming an FM frequency.
    public static func generated(count: Int, seed: UInt64 = 1) -> [Station] {
        var random = SeededRandom(seed: seed)
        let countries = Array(countryNames.keys).sorted()
        return (0..<count).map { n in
            let hasPosition = Double.random(in: 0..<1, using: &random) < 0.8
            let frequency = Double.random(in: 0..<1, using: &random) < 0.2
                ? String(format: " %.1f", Double(Int.random(in: 875...1080, using: &random)) / 10) : ""
            let codec = ["MP3", "MP3", "MP3", "", "AAC", "OGG"][Int.random(in: 0..<6, using: &random)]
            return station(
                uuid(n), "Station \(n)\(frequency)",
                lat: hasPosition ? Double.random(in: -60...70, using: &random) : nil,
                lon: hasPosition ? Double.random(in: -180...180, using: &random) : nil,
                country: countries[Int.random(in: 0..<countries.count, using: &random)],
                codec: codec, tags: ["pop", "rock,indie", "jazz", "news,talk"][n % 4],
                hls: n % 50 == 0, ok: n % 30 != 0, votes: Int.random(in: 0...1000, using: &random))
        }
    }
}


extension WavedialDatabase {
    /// An in-memory database whose catalog holds `stations`, as a sync would leave it.
    public static func inMemory(with stations: [Station]) throws -> WavedialDatabase {
        let database = try WavedialDatabase.inMemory()
        try database.sync(stations)
        return database
    }

    /// Applies `stations` as a complete catalog sync would.
    public func sync(_ stations: [Station]) throws {
        let staging = try CatalogImport(database: self)
        for station in stations { try staging.add(station) }
        _ = try staging.commit(server: "test")
    }
}
