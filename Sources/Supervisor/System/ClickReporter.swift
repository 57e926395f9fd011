import Foundation
import Logging
import RadioBrowser
import WavedialCore

/// Tells Radio Browser which stations are played (`/json/url/{uuid}`), as its click counts
/// ask, on a background queue: a failure there never disturbs playback.
final class ClickReporter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "wd-clicks", qos: .utility)
    private let configured: [String]
    private var discovered: [String]?
    private let logger: Logger

    init(servers: [String], logger: Logger) {
        configured = servers
        self.logger = logger
    }

    func report(_ station: Station) {
        queue.async { [self] in
            // Stations imported from a playlist have no Radio Browser identity.
            guard station.stationuuid.count == 36 else { return }
            if configured.isEmpty && discovered == nil { discovered = ServerDiscovery.discover() }
            guard let server = (configured.isEmpty ? discovered : configured)?.first else { return }
            var client = RadioBrowserClient()
            client.connectTimeout = 5
            client.stallTimeout = 10
            do {
                try client.reportClick(server: server.hasSuffix("/") ? String(server.dropLast()) : server,
                                       stationuuid: station.stationuuid)
            } catch {
                logger.debug("click not reported", metadata: ["station.uuid": "\(station.stationuuid)", "error": "\(error)"])
            }
        }
    }
}
