import Foundation
import GRDB

extension WavedialDatabase {
    /// Number of stations in the catalog.
    public func stationCount() throws -> Int {
        try writer.read { db in try Station.fetchCount(db) }
    }

    /// The station with this stationuuid.
    public func station(uuid: String) throws -> Station? {
        try writer.read { db in
            try Station.filter(Station.CodingKeys.stationuuid == uuid.lowercased()).fetchOne(db)
        }
    }

    /// Stations whose name is `name` (ignoring case), best known first.
    public func stations(named name: String) throws -> [Station] {
        try writer.read { db in
            try Station.fetchAll(db, sql: """
                SELECT * FROM station WHERE name = ? COLLATE NOCASE ORDER BY playable DESC, votes DESC, clickcount DESC
                """, arguments: [name.trimmingCharacters(in: .whitespaces)])
        }
    }

    /// Searches the catalog: all words of the text in the name, and each filter given.
    /// Case- and diacritic-insensitive, and insensitive to compatibility forms (NFKC).
    /// Results: playable first, then by votes and clicks. Every filter is part of one full-text
    /// query (``SearchExpression``: user text is never query syntax) whose rows are numbered in that
    /// order, so a word that matches half the catalog ("radio") stops after `limit` hits instead of
    /// ranking 25,000 rows.
    public func search(_ query: StationQuery) throws -> [Station] {
        guard let match = SearchExpression.match(for: query) else { return [] }
        return try writer.read { db in
            try Station.fetchAll(db, sql: """
                SELECT s.* FROM stationSearch f JOIN stationRank r ON r.rank = f.rowid JOIN station s ON s.id = r.id
                WHERE stationSearch MATCH ? ORDER BY f.rowid DESC LIMIT ?
                """, arguments: [match, query.limit])
        }
    }

    /// The `limit` playable stations nearest `location` by great-circle distance.
    ///
    /// When fewer than `limit` lie within `radiusKm`, playable stations without a valid
    /// position in `countryCode` fill up the set (they are likely local), and then farther
    /// stations. Uses the R*Tree with a growing search box, never a full scan.
    public func nearby(
        _ location: Coordinate, countryCode: String?, limit: Int, radiusKm: Double
    ) throws -> [NearbyStation] {
        try writer.read { db in
            let located = try Self.nearestLocated(db, to: location, limit: limit)
            var result = located.filter { ($0.distanceKm ?? .infinity) <= radiusKm }
            if result.count < limit, let countryCode {
                let fill = try Station.fetchAll(db, sql: """
                    SELECT s.* FROM station s
                    WHERE s.countrycode = ? AND s.playable AND NOT EXISTS (SELECT 1 FROM stationGeo g WHERE g.id = s.id)
                    ORDER BY s.votes DESC, s.clickcount DESC, s.stationuuid LIMIT ?
                    """, arguments: [countryCode.uppercased(), limit - result.count])
                result += fill.map { NearbyStation(station: $0, distanceKm: nil) }
            }
            if result.count < limit {
                result += located.filter { ($0.distanceKm ?? .infinity) > radiusKm }.prefix(limit - result.count)
            }
            return result
        }
    }

    private static func nearestLocated(_ db: Database, to location: Coordinate, limit: Int) throws -> [NearbyStation] {
        // Grow a box around the location until it holds `limit` stations inside its
        // inscribed circle; rank on the R*Tree's own coordinates, then load only the winners.
        var radius = 50.0
        var ranked: [(id: Int64, distance: Double)] = []
        while true {
            let box = GeoBox(around: location, radiusKm: radius)
            let spans = box.longitudeSpans.map { _ in "(minLon <= ? AND maxLon >= ?)" }.joined(separator: " OR ")
            var arguments: [DatabaseValueConvertible] = [box.maxLatitude, box.minLatitude]
            for span in box.longitudeSpans { arguments += [span.upperBound, span.lowerBound] }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, minLat, minLon FROM stationGeo WHERE minLat <= ? AND maxLat >= ? AND (\(spans))
                """, arguments: StatementArguments(arguments))
            ranked.removeAll(keepingCapacity: true)
            while let row = try rows.next() {
                let point = Coordinate(latitude: row[1], longitude: row[2])
                ranked.append((row[0], location.distanceKm(to: point)))
            }
            let inside = ranked.lazy.filter { $0.distance <= radius }.count
            if inside >= limit || box.coversEverything { break }
            // The area searched grows with the square of the radius, so the next radius aims at
            // `limit` from the density seen so far (×1.25 to ×4). Doubling blindly from a sparse
            // place (Reykjavik) lands in a dense one (the British Isles) and ranks ten thousand
            // stations to keep sixty.
            radius *= inside == 0 ? 4 : min(4, max(1.25, (Double(limit) / Double(inside)).squareRoot() * 1.25))
        }
        ranked.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        let winners = ranked.prefix(limit).map(\.id)
        guard !winners.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: winners.count).joined(separator: ",")
        let stations = try Station.fetchAll(db, sql: "SELECT * FROM station WHERE id IN (\(placeholders))",
                                            arguments: StatementArguments(winners))
        // Exact distances from the stored doubles (the R*Tree keeps 32-bit floats).
        return stations.compactMap { station -> NearbyStation? in
            guard let position = station.coordinate else { return nil }
            return NearbyStation(station: station, distanceKm: location.distanceKm(to: position))
        }.sorted { ($0.distanceKm!, $0.station.stationuuid) < ($1.distanceKm!, $1.station.stationuuid) }
    }
}

extension WavedialDatabase {
    /// The station whose `url` or `url_resolved` is `streamURL`.
    public func station(streamURL: String) throws -> Station? {
        try writer.read { db in try Self.station(streamURL: streamURL, db) }
    }

    static func station(streamURL: String, _ db: Database) throws -> Station? {
        try Station.fetchOne(db, sql: stationByStreamURL, arguments: [streamURL, streamURL])
    }

    /// The best known station with a stream URL (both arguments); by index (`station_url`, `station_url_resolved`).
    static let stationByStreamURL = "SELECT * FROM station WHERE url = ? OR url_resolved = ? ORDER BY votes DESC LIMIT 1"
}
