import Foundation
import GRDB

extension WavedialDatabase {
    /// How many stations' loudness is kept: the most recently measured.
    public static let stationLoudnessLimit = 1024

    /// Stores measured loudness, one row a station (the newest replaces the one before), in one
    /// transaction; values outside ``StationLoudness/validRange`` (not a measurement) are left out. Beyond
    /// ``stationLoudnessLimit`` stations, the least recently measured go.
    public func recordLoudness(_ measurements: [StationLoudness]) throws {
        let valid = measurements.filter { StationLoudness.validRange.contains($0.loudnessLUFS) }
        guard !valid.isEmpty else { return }
        try writer.write { db in
            for measurement in valid { try measurement.save(db) }
            let count = try StationLoudness.fetchCount(db)
            guard count > Self.stationLoudnessLimit else { return }
            try db.execute(sql: """
                DELETE FROM stationLoudness WHERE stationuuid IN
                    (SELECT stationuuid FROM stationLoudness ORDER BY measured_at LIMIT ?)
                """, arguments: [count - Self.stationLoudnessLimit])
        }
    }

    /// The station's last measured loudness, nil when it was never measured.
    public func loudness(of stationuuid: String) throws -> StationLoudness? {
        try writer.read { db in try StationLoudness.fetchOne(db, key: stationuuid) }
    }

    /// Every station's last measured loudness (at most ``stationLoudnessLimit``).
    public func allStationLoudness() throws -> [StationLoudness] {
        try writer.read { db in try StationLoudness.fetchAll(db) }
    }
}
