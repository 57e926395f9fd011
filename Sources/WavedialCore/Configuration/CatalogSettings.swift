/// `[catalog]`: the station database and where it is synced from.
public struct CatalogSettings: Sendable, Equatable {
    public static let defaultDatabase = "/var/lib/wavedial/wavedial.sqlite"

    /// Path of the SQLite database (catalog, favorites, history, dial).
    public var database = defaultDatabase
    /// Radio Browser base URLs to use instead of DNS discovery (mirrors, tests).
    public var servers: [String] = []
    /// Hours between background syncs by the daemon.
    public var syncIntervalHours = 24

    public init() {}

    /// Reads `[catalog]`, recording problems in the section's file.
    public init(_ section: ConfigSection) {
        database = section.string("database", default: Self.defaultDatabase)
        if database.isEmpty { section.report("database", "must not be empty") }
        servers = section.strings("servers", default: [])
        for server in servers where !(server.hasPrefix("http://") || server.hasPrefix("https://")) {
            section.report("servers", "must hold http:// or https:// URLs, not \"\(server)\"")
        }
        syncIntervalHours = section.int("sync_interval_hours", default: 24, range: 1...8760)
    }
}
