import Foundation
import GRDB

extension WavedialDatabase {
    /// Setting keys, one place so that no two features share a key by accident.
    enum SettingKey {
        static let location = "location"
        static let lastSync = "catalog.last_sync"
        static let nearbyBandKey = "dial.nearby_key"
        static let applianceState = "appliance.state"
    }

    func setting<Value: Codable>(_ key: String, as type: Value.Type, _ db: Database) throws -> Value? {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    func setSetting<Value: Codable>(_ key: String, _ value: Value?, _ db: Database) throws {
        guard let value else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            return
        }
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, text])
    }

    /// The location set with `wavedial location set`, which overrides the config file's.
    public func storedLocation() throws -> Coordinate? {
        try writer.read { db in try setting(SettingKey.location, as: Coordinate.self, db) }
    }

    /// Stores the radio's location (durably); the nearby band is rebuilt on its next use.
    public func setLocation(_ coordinate: Coordinate?) throws {
        try writer.write { db in try setSetting(SettingKey.location, coordinate, db) }
    }

    /// When the catalog was last synced successfully.
    public func lastSync() throws -> CatalogSyncSummary? {
        try writer.read { db in try setting(SettingKey.lastSync, as: CatalogSyncSummary.self, db) }
    }

    /// What the radio remembers: last station, volume, band. Defaults before the first save.
    public func applianceState() throws -> ApplianceState {
        try writer.read { db in try setting(SettingKey.applianceState, as: ApplianceState.self, db) } ?? ApplianceState()
    }

    /// Stores the appliance state durably (one small transaction).
    public func saveApplianceState(_ state: ApplianceState) throws {
        try writer.write { db in try setSetting(SettingKey.applianceState, state, db) }
    }
}
