import Foundation
import Logging
import WavedialCore

/// A full catalog sync from Radio Browser's `/json/stations` into the database.
///
/// The download is parsed as it streams and staged in batches (peak memory stays small
/// on a Pi Zero), then applied in one transaction. When a server fails — refused, HTTP
/// error, stall, malformed JSON — the next one is tried; when all fail, the previous
/// catalog is intact and the error says what went wrong with each.
///
/// Blocking: run it on a dedicated thread (the daemon) or in the CLI.
public struct CatalogSync {
    /// How far a sync has got, for a progress bar.
    public struct Progress: Sendable {
        public var server: String
        public var stations: Int
        public var bytes: Int
    }

    private let database: WavedialDatabase
    private let servers: [String]
    private let client: RadioBrowserClient
    private let logger: Logger

    /// - Parameter servers: base URLs to try in order; empty means DNS discovery.
    public init(database: WavedialDatabase, servers: [String], client: RadioBrowserClient = .init(), logger: Logger) {
        self.database = database
        self.servers = servers
        self.client = client
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
        let candidates = servers.isEmpty ? ServerDiscovery.discover() : servers
        guard !candidates.isEmpty else { throw RadioBrowserError.noServers }
        var failures: [RadioBrowserError] = []
        for server in candidates {
            guard shouldContinue() else { throw RadioBrowserError.cancelled }
            let base = server.hasSuffix("/") ? String(server.dropLast()) : server
            do {
                let summary = try download(from: base, progress: progress, shouldContinue: shouldContinue)
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

    private func download(from server: String, progress: (Progress) -> Void,
                          shouldContinue: @escaping () -> Bool) throws -> CatalogSyncSummary {
        let staging = try CatalogImport(database: database)
        var splitter = JSONArraySplitter()
        var state = Progress(server: server, stations: 0, bytes: 0)
        do {
            try client.get("\(server)/json/stations?hidebroken=false", shouldContinue: shouldContinue) { bytes in
                state.bytes += bytes.count
                try splitter.feed(bytes) { element in
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
