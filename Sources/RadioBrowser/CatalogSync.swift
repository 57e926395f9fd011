import Foundation
import Logging
import WavedialCore

/// A full catalog sync from Radio Browser's `/json/stations` into the database.
///
/// The download is parsed as it streams and staged in batches (peak memory stays small
/// on a Pi Zero), then applied in one transaction. When a server fails — refused, HTTP
/// error, stall, malformed JSON, past a limit (``Limits``) — the next one is tried; when all
/// fail, the previous catalog and the favorites are intact and the error says what went wrong with each.
///
/// Servers found by DNS are reached over HTTPS at public addresses only (``AddressPolicy/catalog``:
/// a discovered name resolving into the home network is suspect); configured ones as configured.
///
/// Blocking: run it on a dedicated thread (the daemon) or in the CLI.
public struct CatalogSync {
    /// How far a sync has got, for a progress bar.
    public struct Progress: Sendable {
        public var server: String
        public var stations: Int
        public var bytes: Int
    }

    /// What one server's download may amount to: past any of these the server has failed, so a
    /// hostile or broken mirror can neither fill the SD card nor hold the sync for ever.
    public struct Limits: Sendable {
        /// Station records (kept and skipped; default 200,000: Radio Browser has about 50,000).
        public var maximumStations: Int
        /// Body bytes after decompression (default 256 MiB; the real catalog is about 40 MB).
        public var maximumBytes: Int
        /// Seconds the whole transfer may take (default 600), whatever its speed.
        public var maximumSeconds: Int

        public init(maximumStations: Int = 200_000, maximumBytes: Int = 256 << 20, maximumSeconds: Int = 600) {
            self.maximumStations = maximumStations
            self.maximumBytes = maximumBytes
            self.maximumSeconds = maximumSeconds
        }
    }

    private let database: WavedialDatabase
    private let servers: [String]
    private let client: RadioBrowserClient
    private let limits: Limits
    private let logger: Logger

    /// - Parameters:
    ///   - servers: base URLs to try in order; empty means DNS discovery.
    ///   - client: its timeouts and low-speed limit; its transfer time is ``Limits/maximumSeconds``.
    public init(database: WavedialDatabase, servers: [String], client: RadioBrowserClient = .init(), limits: Limits = Limits(),
                logger: Logger) {
        self.database = database
        self.servers = servers
        self.client = client
        self.limits = limits
        self.logger = logger
    }

    /// Runs the sync; `progress` is called as stations arrive (on the calling thread).
    /// `shouldContinue` is polled during the download (any thread may make it turn false); once
    /// false the sync stops within about a second and the previous catalog stays as it was.
    /// - Throws: ``RadioBrowserError`` when no server delivered a usable catalog, or
    ///   ``RadioBrowserError/cancelled`` when stopped.
    public func run(progress: (Progress) -> Void = { _ in },
                    shouldContinue: @escaping () -> Bool = { true }) throws -> CatalogSyncSummary {
        guard shouldContinue() else { throw RadioBrowserError.cancelled }
        let discovered = servers.isEmpty
        let candidates = discovered ? ServerDiscovery.discover() : servers
        guard !candidates.isEmpty else { throw RadioBrowserError.noServers }
        var client = self.client
        client.transferTimeout = limits.maximumSeconds
        if discovered { client.addressPolicy = ServerDiscovery.addressPolicy }
        var failures: [RadioBrowserError] = []
        for server in candidates {
            guard shouldContinue() else { throw RadioBrowserError.cancelled }
            let base = server.hasSuffix("/") ? String(server.dropLast()) : server
            do {
                let summary = try download(from: base, client: client, progress: progress, shouldContinue: shouldContinue)
                logger.info("catalog synced", metadata: [
                    "catalog.server": "\(base)", "catalog.total": "\(summary.total)", "catalog.added": "\(summary.added)",
                    "catalog.removed": "\(summary.removed)",
                ])
                return summary
            } catch RadioBrowserError.cancelled {
                throw RadioBrowserError.cancelled
            } catch let error as RadioBrowserError {
                logger.info("catalog server failed", metadata: ["catalog.server": "\(base)", "error": "\(error)"])
                failures.append(error)
            } catch let error as CatalogImportError {
                failures.append(.server(base, reason: error.description))
            }
        }
        throw RadioBrowserError.allServersFailed(failures)
    }

    private func download(from server: String, client: RadioBrowserClient, progress: (Progress) -> Void,
                          shouldContinue: @escaping () -> Bool) throws -> CatalogSyncSummary {
        let staging = try CatalogImport(database: database)
        var splitter = JSONArraySplitter()
        var state = Progress(server: server, stations: 0, bytes: 0)
        do {
            try client.get("\(server)/json/stations?hidebroken=false", shouldContinue: shouldContinue) { bytes in
                state.bytes += bytes.count
                guard state.bytes <= limits.maximumBytes else {
                    throw RadioBrowserError.server(
                        server, reason: "the download is larger than \(limits.maximumBytes) bytes (the limit); the catalog was kept")
                }
                try splitter.feed(bytes) { element in
                    guard staging.received + staging.skipped < limits.maximumStations else {
                        throw RadioBrowserError.server(
                            server, reason: "the download holds more than \(limits.maximumStations) stations (the limit); the catalog was kept")
                    }
                    do {
                        let (station, repaired) = try RadioBrowserStation.decodeRepairing(element)
                        try staging.add(station, repaired: repaired)
                    } catch RadioBrowserStation.RecordError.malformed {
                        let record = staging.received + staging.skipped + 1
                        throw RadioBrowserError.server(server, reason: "malformed JSON in station record \(record)")
                    } catch is RadioBrowserStation.RecordError {
                        staging.skip()
                    }
                    state.stations = staging.received
                    if staging.received % 1000 == 0 { progress(state) }
                }
            }
            try splitter.finish()
            progress(state)
            return try staging.commit(server: server)
        } catch let error as JSONArraySplitter.SplitError {
            try staging.discard()
            throw RadioBrowserError.server(server, reason: error.description)
        } catch {
            try staging.discard()
            throw error
        }
    }
}
