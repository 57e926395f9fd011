import Foundation
import GRDB

/// The bands the dial can show.
public enum DialBandKind: String, Sendable, CaseIterable {
    /// The stations near the radio.
    case nearby
    /// The favorites only.
    case favorites
}

extension WavedialDatabase {
    /// The nearby band: the nearby set placed on `settings.band`, keeping every stored
    /// frequency of a station still in the set. A new location (or band) starts afresh.
    /// The plan is stored durably, so "jazz is at 94.1" survives syncs and restarts.
    /// - Returns: the band and the stations on it, nearest first.
    public func nearbyBand(
        location: Coordinate, countryCode: String?, settings: DialSettings
    ) throws -> (band: DialBand, stations: [NearbyStation]) {
        let stations = try nearby(location, countryCode: countryCode, limit: settings.stations, radiusKm: settings.radiusKm)
        let key = NearbyBandKey(location: location, countryCode: countryCode, band: settings.band)
        let candidates = stations.map {
            FrequencyPlan.Candidate(
                stationuuid: $0.station.stationuuid,
                statedKHz: StatedFrequency.find(name: $0.station.name, tags: $0.station.tags, on: settings.band))
        }
        let band = try writer.write { db in
            let stored = try setting(SettingKey.nearbyBandKey, as: NearbyBandKey.self, db)
            let previous = stored == key ? try assignments(.nearby, db) : [:]
            let plan = FrequencyPlan(band: settings.band, candidates: candidates, previous: previous)
            if plan.assignments != previous || stored != key {
                try store(plan.assignments, as: .nearby, db)
                try setSetting(SettingKey.nearbyBandKey, key, db)
            }
            return DialBand(band: settings.band, assignments: plan.assignments)
        }
        return (band, stations)
    }

    /// The favorites band: the favorites (snapshots, so vanished stations stay) placed on `band`.
    public func favoritesBand(_ band: Band) throws -> (band: DialBand, favorites: [Favorite]) {
        let favorites = try favorites()
        let candidates = favorites.map {
            FrequencyPlan.Candidate(
                stationuuid: $0.stationuuid,
                statedKHz: StatedFrequency.find(name: $0.snapshot.name, tags: $0.snapshot.tags, on: band))
        }
        let dial = try writer.write { db in
            let previous = try assignments(.favorites, db).filter { band.isChannel($0.value) }
            let plan = FrequencyPlan(band: band, candidates: candidates, previous: previous)
            if plan.assignments != previous { try store(plan.assignments, as: .favorites, db) }
            return DialBand(band: band, assignments: plan.assignments)
        }
        return (dial, favorites)
    }

    private func assignments(_ kind: DialBandKind, _ db: Database) throws -> [String: Int] {
        let rows = try Row.fetchAll(db, sql: "SELECT stationuuid, khz FROM dialAssignment WHERE band = ?", arguments: [kind.rawValue])
        return Dictionary(rows.map { ($0["stationuuid"] as String, $0["khz"] as Int) }, uniquingKeysWith: { first, _ in first })
    }

    private func store(_ assignments: [String: Int], as kind: DialBandKind, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM dialAssignment WHERE band = ?", arguments: [kind.rawValue])
        for (uuid, kHz) in assignments {
            try db.execute(sql: "INSERT INTO dialAssignment(band, stationuuid, khz) VALUES (?, ?, ?)",
                           arguments: [kind.rawValue, uuid, kHz])
        }
    }
}

/// What the stored nearby band was built for; when it changes, the band is rebuilt.
struct NearbyBandKey: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var countryCode: String?
    var startKHz: Int
    var endKHz: Int
    var stepKHz: Int

    init(location: Coordinate, countryCode: String?, band: Band) {
        latitude = location.latitude
        longitude = location.longitude
        self.countryCode = countryCode
        startKHz = band.startKHz
        endKHz = band.endKHz
        stepKHz = band.stepKHz
    }
}
