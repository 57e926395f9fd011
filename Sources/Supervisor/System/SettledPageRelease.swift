import Dispatch
import Logging

/// Hands the mapped files' pages back again (``MappedImages/releaseStartUpPages()``) once a newly tuned
/// station has played for a while: reaching a station runs code that playing it does not use again
/// (libcurl's, the TLS libraries' and the resolver's set-up, the first frames' decoder set-up), and the
/// kernel keeps it resident, with the blocks around it, until memory runs short.
///
/// Follows the controller's status; the release runs on a utility queue, never on the controller's.
final class SettledPageRelease: @unchecked Sendable {
    private let controller: RadioController
    private let delaySeconds: Double
    private let release: () -> Int
    private let logger: Logger
    private let queue = DispatchQueue(label: "wd-page-release", qos: .utility)
    /// The station the last release was for, and the one playing since; on `queue`.
    private var released: String?
    private var playing: String?
    private var cancel: (() -> Void)?

    /// - Parameters:
    ///   - delaySeconds: how long a station plays before its set-up's pages are handed back.
    ///   - release: hands the pages back and says how many regions it advised (tests count the calls).
    init(following controller: RadioController, delaySeconds: Double = 10, logger: Logger,
         release: @escaping () -> Int = { MappedImages.releaseStartUpPages().count }) {
        self.controller = controller
        self.delaySeconds = delaySeconds
        self.logger = logger
        self.release = release
    }

    /// Starts following the controller's status.
    func start() {
        cancel = controller.subscribe { [weak self] status in
            guard let self else { return false }
            let station = status.state == .playing ? status.station?.stationuuid : nil
            queue.async { self.heard(station) }
            return true
        }
    }

    /// Stops following; a release under way finishes.
    func stop(waitingUpTo timeout: Double) -> Bool {
        cancel?()
        cancel = nil
        return true
    }

    private func heard(_ station: String?) {
        guard station != playing else { return }
        playing = station
        guard let station, station != released else { return }
        queue.asyncAfter(deadline: .now() + delaySeconds) { [weak self] in
            guard let self, playing == station, released != station else { return }
            released = station
            let regions = release()
            logger.debug("pages of a station's set-up released", metadata: ["regions": "\(regions)"])
        }
    }
}

extension SettledPageRelease: ApplianceService {
    var threadNames: String { "wd-page-release" }
}
