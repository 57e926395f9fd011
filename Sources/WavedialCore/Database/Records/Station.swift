import Foundation
import GRDB

/// A station of the Radio Browser catalog, as stored in table `station`.
///
/// Coding keys are Radio Browser's field names, so the CLI's JSON and the database
/// columns read like the API (`stationuuid`, `url_resolved`, `geo_lat`, …).
public struct Station: Codable, Sendable, Equatable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "station"

    public var stationuuid: String
    public var name: String
    public var url: String
    public var urlResolved: String = ""
    public var homepage: String = ""
    public var favicon: String = ""
    public var tags: String = ""
    public var country: String = ""
    public var countrycode: String = ""
    public var state: String = ""
    public var language: String = ""
    public var languagecodes: String = ""
    public var codec: String = ""
    public var bitrate: Int = 0
    public var hls: Bool = false
    public var lastcheckok: Bool = true
    public var geoLat: Double?
    public var geoLong: Double?
    public var votes: Int = 0
    public var clickcount: Int = 0
    public var lastchangetime: String = ""

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case stationuuid, name, url, homepage, favicon, tags, country, countrycode, state, language,
             languagecodes, codec, bitrate, hls, lastcheckok, votes, clickcount, lastchangetime
        case urlResolved = "url_resolved"
        case geoLat = "geo_lat"
        case geoLong = "geo_long"
    }

    public init(stationuuid: String, name: String, url: String) {
        self.stationuuid = stationuuid
        self.name = name
        self.url = url
    }

    /// Reads the row column by column. Without it GRDB decodes through `Decodable`, which for
    /// these 21 columns costs more than the query that found the row (half of `nearby`'s time).
    public init(row: Row) throws {
        func column<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ key: CodingKeys) throws -> Value {
            try row.decode(forColumn: key.stringValue)
        }
        stationuuid = try column(.stationuuid)
        name = try column(.name)
        url = try column(.url)
        urlResolved = try column(.urlResolved)
        homepage = try column(.homepage)
        favicon = try column(.favicon)
        tags = try column(.tags)
        country = try column(.country)
        countrycode = try column(.countrycode)
        state = try column(.state)
        language = try column(.language)
        languagecodes = try column(.languagecodes)
        codec = try column(.codec)
        bitrate = try column(.bitrate)
        hls = try column(.hls)
        lastcheckok = try column(.lastcheckok)
        geoLat = try column(.geoLat)
        geoLong = try column(.geoLong)
        votes = try column(.votes)
        clickcount = try column(.clickcount)
        lastchangetime = try column(.lastchangetime)
    }

    /// Whether the radio can play it (``unplayableReason`` is nil). Other stations stay in the
    /// catalog but never go on the dial.
    public var isPlayable: Bool { unplayableReason == nil }

    /// Why the radio cannot play it, nil when it can; see ``StationPlayability``.
    public var unplayableReason: StationPlayability.Reason? {
        StationPlayability.reason(codec: codec, hls: hls, lastCheckOK: lastcheckok, streamURL: checkedStreamURL)
    }

    /// The station's position when it has a valid one.
    public var coordinate: Coordinate? { Coordinate(validLatitude: geoLat, longitude: geoLong) }

    /// The stream Radio Browser's last check reached (`url_resolved`: `url`'s playlist and redirects
    /// followed), else `url`: what its scheme says about playability. The radio plays `url` itself and
    /// follows its playlist and redirects at every tune, since the check's result goes stale (tokenised
    /// redirects, relays that move).
    public var checkedStreamURL: String { urlResolved.isEmpty ? url : urlResolved }

    /// The table's columns in the order of ``databaseValues``.
    static let databaseColumns = [
        "stationuuid", "name", "url", "url_resolved", "homepage", "favicon", "tags", "country", "countrycode",
        "state", "language", "languagecodes", "codec", "bitrate", "hls", "lastcheckok", "geo_lat", "geo_long",
        "votes", "clickcount", "lastchangetime", "playable",
    ]

    /// The row's values, in the order of ``databaseColumns`` (`playable` is derived and
    /// stored so that queries can filter on it).
    var databaseValues: [DatabaseValue] {
        [
            stationuuid.databaseValue, name.databaseValue, url.databaseValue, urlResolved.databaseValue,
            homepage.databaseValue, favicon.databaseValue, tags.databaseValue, country.databaseValue,
            countrycode.databaseValue, state.databaseValue, language.databaseValue, languagecodes.databaseValue,
            codec.databaseValue, bitrate.databaseValue, hls.databaseValue, lastcheckok.databaseValue,
            geoLat.databaseValue, geoLong.databaseValue, votes.databaseValue, clickcount.databaseValue,
            lastchangetime.databaseValue, isPlayable.databaseValue,
        ]
    }

    public func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.databaseColumns, databaseValues) { container[column] = value }
    }
}
