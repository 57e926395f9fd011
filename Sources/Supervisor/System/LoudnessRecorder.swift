import Audio
import Foundation
import Hardware
import Logging
import Threads
import WavedialCore

/// Keeps stations' measured loudness across restarts: gives the player what the database holds (each
/// station's starting guess when tuned) and writes the player's measurements back through a
/// ``LoudnessWriteBuffer`` on a queue of its own (`wd-loudness`), so neither the audio thread nor the
/// controller's queue ever waits on the SD card.
final class LoudnessRecorder: @unchecked Sendable {
    private let queue = DispatchQueue(label: "wd-loudness", qos: .utility)
    private let database: WavedialDatabase
    private let player: Player
    private let logger: Logger
    private let monotonic: () -> UInt64
    /// Used on `queue` only.
    private var buffer = LoudnessWriteBuffer()
    private var observation: Player.Observation?

    init(database: WavedialDatabase, player: Player, logger: Logger, monotonic: @escaping () -> UInt64 = MonotonicClock.now) {
        self.database = database
        self.player = player
        self.logger = logger
        self.monotonic = monotonic
    }

    /// Hands the player the stored loudness and records its measurements from now on. Call once, before it plays.
    func start() {
        do {
            let stored = try database.allStationLoudness()
            player.rememberLoudness(Dictionary(stored.map { ($0.stationuuid, $0.loudnessLUFS) }) { _, newer in newer })
        } catch {
            logger.warning("stored loudness not read", metadata: ["error": "\(error)"])
        }
        observation = player.observeLoudness { [weak self] report in
            // On the audio thread: only handed on.
            guard let recorder = self else { return }
            recorder.queue.async { recorder.heard(report) }
        }
    }

    /// Stops recording and writes what is pending, waiting up to `timeout` seconds. Any thread.
    /// - Returns: whether the writes were done in time.
    func stop(waitingUpTo timeout: Double) -> Bool {
        observation?.cancel()
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            write(buffer.takeAll())
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    private func heard(_ report: LoudnessReport) {
        let measurement = StationLoudness(stationuuid: report.station.id, loudnessLUFS: report.integratedLUFS, measuredAt: Date())
        let now = monotonic()
        buffer.hear(measurement, isLast: report.isLast, at: now)
        write(buffer.takeDue(at: now))
    }

    private func write(_ measurements: [StationLoudness]) {
        guard !measurements.isEmpty else { return }
        do {
            try database.recordLoudness(measurements)
        } catch {
            logger.warning("station loudness not saved", metadata: ["error": "\(error)", "stations": "\(measurements.count)"])
        }
    }
}

extension LoudnessRecorder: ApplianceService {
    var threadNames: String { "wd-loudness" }
}
