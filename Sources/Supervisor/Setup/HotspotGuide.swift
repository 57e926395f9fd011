import ApplianceSetup
import Dispatch
import Logging

/// Walks the owner through the radio's setup on its display while the setup access point is up: every
/// ``stepSeconds`` it reads the hotspot file (the image's hotspot script writes it while the access point is up
/// and removes it after) and shows the next of ``HotspotBanner``'s steps as the display's banner. When the file
/// is gone the banner ends by itself and the network being joined is forgotten.
///
/// Its timer runs on its own queue (`wd-hotspot`); it reads a small file in `/run` and never blocks the
/// controller's queue.
final class HotspotGuide: @unchecked Sendable {
    private let hotspotFile: String
    private let joining: SetupJoining
    private let stepSeconds: Double
    private let show: @Sendable (String, UInt64) -> Void
    private let logger: Logger
    private let queue = DispatchQueue(label: "wd-hotspot", qos: .utility)
    private var timer: DispatchSourceTimer?
    /// The step shown last, and whether the access point was up at the last look; on `queue`.
    private var step = 0
    private var wasUp = false

    /// - Parameters:
    ///   - show: shows a banner for some nanoseconds (``RadioController/showBanner(_:forNanoseconds:)``).
    init(hotspotFile: String, joining: SetupJoining, stepSeconds: Double = 3, logger: Logger,
         show: @escaping @Sendable (String, UInt64) -> Void) {
        self.hotspotFile = hotspotFile
        self.joining = joining
        self.stepSeconds = stepSeconds
        self.logger = logger
        self.show = show
    }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: stepSeconds)
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
        self.timer = timer
    }

    func stop(waitingUpTo timeout: Double) -> Bool {
        guard let timer else { return true }
        self.timer = nil
        return timer.cancelAndWait(timeout: timeout)
    }

    /// One step: the next line of the walk-through, or nothing once the access point is down.
    private func look() {
        guard let hotspot = SetupHotspot.read(at: hotspotFile) else {
            if wasUp {
                logger.info("setup access point down")
                joining.set(nil)
            }
            wasUp = false
            step = 0
            return
        }
        if !wasUp { logger.info("setup access point up", metadata: ["hotspot.ssid": "\(hotspot.ssid)"]) }
        wasUp = true
        let steps = HotspotBanner.steps(for: hotspot, joining: joining.network)
        // Shown a little longer than a step, so the next one replaces it without a gap.
        show(steps[step % steps.count], UInt64((stepSeconds + 0.5) * 1e9))
        step = (step + 1) % steps.count
    }
}

extension HotspotGuide: ApplianceService {
    var threadNames: String { "wd-hotspot" }
    var isEssential: Bool { false }
}
