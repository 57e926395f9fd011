import CurlSupport
import Foundation
import Logging
import RadioBrowser
import Threads
import WavedialConfig
import WavedialCore

/// Keeps the catalog fresh: syncs at once when it is empty (first start), then every
/// `sync_interval_hours`; with no network it says so and retries with back-off, or as soon as a
/// network appears (``networkChanged()``). Syncs
/// asked for over the control socket share one lock with the schedule, so two never
/// write the staging table at once.
public final class CatalogService: @unchecked Sendable {
    private let database: WavedialDatabase
    private let settings: CatalogSettings
    private let logger: Logger
    private let onNotice: (String?) -> Void
    private let onSynced: () -> Void
    private let syncLock = NSLock()
    private var supervisor: SupervisedThread?
    /// Set by ``stop(waitingUpTo:)``: a sync running on any thread ends, and none starts.
    private let stopping = OnceFlag()

    public init(database: WavedialDatabase, settings: CatalogSettings, logger: Logger,
                onNotice: @escaping (String?) -> Void, onSynced: @escaping () -> Void) {
        self.database = database
        self.settings = settings
        self.logger = logger
        self.onNotice = onNotice
        self.onSynced = onSynced
    }

    /// Runs one sync now (blocking), reporting progress as notices while the catalog is empty.
    /// - Throws: ``RadioBrowserError`` (``RadioBrowserError/cancelled`` once the service stops).
    public func syncNow() throws -> CatalogSyncSummary {
        try syncLock.withLock {
            guard !stopping.isSet else { throw RadioBrowserError.cancelled }
            let empty = (try? database.stationCount()) == 0
            if empty { onNotice("Syncing catalog") }
            let sync = CatalogSync(database: database, servers: settings.servers, logger: logger)
            do {
                let summary = try sync.run(progress: { [onNotice] progress in
                    if empty { onNotice("Syncing \(progress.stations)") }
                }, shouldContinue: { [stopping] in !stopping.isSet })
                onNotice(nil)
                onSynced()
                return summary
            } catch RadioBrowserError.cancelled {
                throw RadioBrowserError.cancelled
            } catch {
                if empty { onNotice(Self.words(for: error)) }
                throw error
            }
        }
    }

    /// Starts the schedule on its own thread (`wd-sync`).
    public func start() {
        let supervisor = SupervisedThread(name: "wd-sync", logger: logger) { [self] thread in
            var backoff = Backoff(initial: 30, maximum: 3600)
            while !thread.isStopped {
                let wait: Double
                if isDue() {
                    do {
                        _ = try syncNow()
                        backoff.reset()
                        wait = Double(settings.syncIntervalHours) * 3600
                    } catch RadioBrowserError.cancelled {
                        return
                    } catch {
                        logger.warning("catalog sync failed", metadata: ["error": "\(error)"])
                        wait = backoff.next()
                    }
                } else {
                    wait = max(1, nextDue().timeIntervalSinceNow)
                }
                guard thread.sleep(min(wait, 3600)) else { return }
            }
        }
        self.supervisor = supervisor
        supervisor.start()
    }

    /// Cancels any sync in progress (scheduled or asked for over the control socket), stops the
    /// schedule and waits up to `timeout` seconds for `wd-sync` to end. - Returns: whether it ended.
    public func stop(waitingUpTo timeout: Double) -> Bool {
        stopping.set()
        return supervisor?.stop(waitingUpTo: timeout) ?? true
    }

    /// The network may have come (back): a sync that is due (one that failed, or the first) runs now
    /// instead of at the end of its back-off. Any thread.
    public func networkChanged() {
        supervisor?.interruptSleep()
    }

    private func isDue() -> Bool {
        guard (try? database.stationCount()) ?? 0 > 0 else { return true }
        return nextDue() <= Date()
    }

    private func nextDue() -> Date {
        let last = (try? database.lastSync())?.finishedAt ?? .distantPast
        return last.addingTimeInterval(Double(settings.syncIntervalHours) * 3600)
    }

    /// The LCD's words for a failed sync. A radio with no address but loopback and link-local ones has no
    /// network, whatever a configured server's failure says (a connect with no route to it).
    /// - Parameter addresses: this machine's addresses (``HostAddresses/current()``).
    static func words(for error: Error, addresses: [IPAddress] = HostAddresses.current()) -> String {
        let text = "\(error)"
        if text.contains("name not found") || text.contains("no Radio Browser server found") { return "No network" }
        let local: AddressPolicy.Kinds = [.loopback, .linkLocal, .unspecified, .multicast]
        if !addresses.contains(where: { AddressPolicy.kinds(of: $0).isDisjoint(with: local) }) { return "No network" }
        return "Catalog offline"
    }
}

extension CatalogService: ApplianceService {
    public var threadNames: String { "wd-sync" }
}
