import Foundation
import GRDB

/// The bands the dial can show.
public enum DialBandKind: String, Codable, Sendable, CaseIterable {
    /// The stations near the radio.
    case nearby
    /// The favorites only.
    case favorites
}

/// A band's frequency plan, and whether the database already holds it: planning reads, and only
/// ``WavedialDatabase/storeDialPlan(_:)`` writes (the daemon's; the CLI shows plans without storing them).
public struct DialPlan: Sendable, Equatable {
    public let kind: DialBandKind
    public let band: DialBand
    /// Whether the stored plan is this one (then storing it writes nothing).
    public let isStored: Bool
    /// What a nearby plan was made for.
    fileprivate let key: NearbyBandKey?
}

extension WavedialDatabase {
    /// The nearby band: the nearby set placed on `settings.band`, keeping every stored frequency of a station
    /// still in the set (a new location, or band, starts afresh). Reads only: ``storeDialPlan(_:)`` stores it,
    /// so "jazz is at 94.1" survives syncs and restarts. - Returns: the plan and the stations on it, nearest first.
    public func planNearbyBand(
        location: Coordinate, countryCode: String?, settings: DialSettings
    ) throws -> (plan: DialPlan, stations: [NearbyStation]) {
        let stations = try nearby(location, countryCode: countryCode, limit: settings.stations, radiusKm: settings.radiusKm)
        let key = NearbyBandKey(location: location, countryCode: countryCode, band: settings.band)
        let candidates = stations.map {
            FrequencyPlan.Candidate(
                stationuuid: $0.station.stationuuid,
                statedKHz: StatedFrequency.find(name: $0.station.name, tags: $0.station.tags, on: settings.band))
        }
        let plan = try writer.read { db in
            let stored = try setting(SettingKey.nearbyBandKey, as: NearbyBandKey.self, db)
            let previous = stored == key ? try assignments(.nearby, db) : [:]
            let plan = FrequencyPlan(band: settings.band, candidates: candidates, previous: previous)
            return DialPlan(kind: .nearby, band: DialBand(band: settings.band, assignments: plan.assignments),
                            isStored: plan.assignments == previous && stored == key, key: key)
        }
        return (plan, stations)
    }

    /// The favorites band: the favorites (snapshots, so vanished stations stay) placed on `band`. Reads only:
    /// ``storeDialPlan(_:)`` stores it.
    public func planFavoritesBand(_ band: Band) throws -> (plan: DialPlan, favorites: [Favorite]) {
        let favorites = try favorites()
        let candidates = favorites.map {
            FrequencyPlan.Candidate(
                stationuuid: $0.stationuuid,
                statedKHz: StatedFrequency.find(name: $0.snapshot.name, tags: $0.snapshot.tags, on: band))
        }
        let plan = try writer.read { db in
            let previous = try assignments(.favorites, db).filter { band.isChannel($0.value) }
            let plan = FrequencyPlan(band: band, candidates: candidates, previous: previous)
            return DialPlan(kind: .favorites, band: DialBand(band: band, assignments: plan.assignments),
                            isStored: plan.assignments == previous, key: nil)
        }
        return (plan, favorites)
    }

    /// Stores `plan` durably, so its frequencies survive syncs and restarts; writes nothing when it is stored already.
    public func storeDialPlan(_ plan: DialPlan) throws {
        guard !plan.isStored else { return }
        let assignments = Dictionary(plan.band.entries.map { ($0.stationuuid, $0.kHz) }, uniquingKeysWith: { first, _ in first })
        try writer.write { db in
            try store(assignments, as: plan.kind, db)
            if let key = plan.key { try setSetting(SettingKey.nearbyBandKey, key, db) }
        }
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
