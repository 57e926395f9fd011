import Foundation
import Logging
import RadioBrowser
import Threads
import WavedialCore

/// Tells Radio Browser which stations are played (`/json/url/{uuid}`), as its click counts
/// ask, on a background queue: a failure there never disturbs playback.
final class ClickReporter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "wd-clicks", qos: .utility)
    private let configured: [String]
    private var discovered: [String]?
    private let logger: Logger
    private let stopping = OnceFlag()

    init(servers: [String], logger: Logger) {
        configured = servers
        self.logger = logger
    }

    /// Reports go out on its queue as they come: nothing to start.
    func start() {}

    func report(_ station: Station) {
        queue.async { [self] in
            // The controller reports catalog stations only (a typed URL's id is made up); what is no UUID
            // is no Radio Browser station anyway.
            guard station.stationuuid.count == 36, !stopping.isSet else { return }
            if configured.isEmpty && discovered == nil { discovered = ServerDiscovery.discover() }
            guard let server = (configured.isEmpty ? discovered : configured)?.first else { return }
            var client = RadioBrowserClient()
            client.connectTimeout = 5
            client.stallTimeout = 10
            if configured.isEmpty { client.addressPolicy = ServerDiscovery.addressPolicy }
            do {
                try client.reportClick(server: server.hasSuffix("/") ? String(server.dropLast()) : server,
                                       stationuuid: station.stationuuid, shouldContinue: { [stopping] in !stopping.isSet })
            } catch {
                logger.debug("click not reported", metadata: ["station.uuid": "\(station.stationuuid)", "error": "\(error)"])
            }
        }
    }

    /// Drops the reports not yet sent, stops the one being sent and waits up to `timeout` seconds
    /// for the queue to be idle. Any thread. - Returns: whether it became idle.
    func stop(waitingUpTo timeout: Double) -> Bool {
        stopping.set()
        let idle = DispatchSemaphore(value: 0)
        queue.async { idle.signal() }
        return idle.wait(timeout: .now() + timeout) == .success
    }
}

extension ClickReporter: ApplianceService {
    var threadNames: String { "wd-clicks" }
}
