import Audio
import Foundation

@testable import Supervisor

/// A player that records what the controller asks of it and reports states the test sets:
/// the controller's rules are tested alone; the real player is tested against Icecast.
final class RecordingPlayer: RadioPlayer, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [UUID: (PlayerStatus) -> Void] = [:]
    private var titleHandlers: [UUID: (TrackTitle) -> Void] = [:]
    private(set) var calls: [String] = []
    var volume: Double = 1 {
        didSet { lock.withLock { calls.append("volume \(Int((volume * 100).rounded()))") } }
    }
    private(set) var status = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)

    private var playedStations: [PlayableStation] = []
    private var sweepLog: [(level: Double?, noise: Bool)] = []
    /// Whether ``play(_:)`` of the station tuned ahead goes on from it as the real player does (the status stays
    /// the player's), rather than reporting it connecting.
    var adoptsPlay = false

    /// Every ``setSweep(level:noise:)``, in order.
    var sweeps: [(level: Double?, noise: Bool)] { lock.withLock { sweepLog } }

    var played: [String] { lock.withLock { calls.filter { $0.hasPrefix("play ") }.map { String($0.dropFirst(5)) } } }

    /// The stations played, as the controller handed them over (URL and address policy included).
    var stations: [PlayableStation] { lock.withLock { playedStations } }

    func play(_ station: PlayableStation) {
        lock.withLock {
            calls.append("play \(station.id)")
            playedStations.append(station)
        }
        if adoptsPlay && status.station == station { return }
        report(PlayerStatus(state: .connecting, station: station, title: nil, streamName: nil))
    }

    func prepare(_ station: PlayableStation) {
        lock.withLock { calls.append("prepare \(station.id)") }
        report(PlayerStatus(state: .connecting, station: station, title: nil, streamName: nil))
    }

    func setSweep(level: Double?, noise: Bool) {
        lock.withLock { sweepLog.append((level, noise)) }
    }

    /// The stations asked to be kept warm, by each call in turn.
    private(set) var warmed: [[String]] = []

    func warm(_ stations: [PlayableStation], budgetKbps: Int) {
        lock.withLock { warmed.append(stations.map(\.id)) }
    }

    func pause() {
        lock.withLock { calls.append("pause") }
        report(PlayerStatus(state: .paused, station: status.station, title: status.title, streamName: nil))
    }

    func resume() {
        lock.withLock { calls.append("resume") }
        report(PlayerStatus(state: .playing, station: status.station, title: status.title, streamName: nil))
    }

    func stop() {
        lock.withLock { calls.append("stop") }
        report(PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil))
    }

    func soundAlarmTone(_ on: Bool) {
        lock.withLock { calls.append(on ? "tone" : "tone off") }
    }

    func observe(_ handler: @escaping @Sendable (PlayerStatus) -> Void) -> Player.Observation {
        let id = UUID()
        lock.withLock { handlers[id] = handler }
        return Player.Observation(onCancel: { [weak self] in _ = self?.lock.withLock { self?.handlers.removeValue(forKey: id) } })
    }

    func observeTitles(_ handler: @escaping @Sendable (TrackTitle) -> Void) -> Player.Observation {
        let id = UUID()
        lock.withLock { titleHandlers[id] = handler }
        return Player.Observation(onCancel: { [weak self] in _ = self?.lock.withLock { self?.titleHandlers.removeValue(forKey: id) } })
    }

    /// Reports a state as the real player would (on another thread's behalf).
    func report(_ status: PlayerStatus) {
        self.status = status
        for handler in lock.withLock({ Array(handlers.values) }) { handler(status) }
    }

    /// A title reaching the speaker at `unixTime` (now, by default).
    func hear(_ title: String, at unixTime: Double = Date().timeIntervalSince1970) {
        guard let station = status.station else { return }
        report(PlayerStatus(state: .playing, station: station, title: title, streamName: nil))
        for handler in lock.withLock({ Array(titleHandlers.values) }) { handler(TrackTitle(unixTime: unixTime, station: station, title: title)) }
    }
}
