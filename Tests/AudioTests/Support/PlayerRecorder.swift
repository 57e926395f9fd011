import Audio
import Foundation

/// Records every status and title a ``Player`` publishes, and waits for conditions on them.
final class PlayerRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statusLog: [PlayerStatus] = []
    private var titleLog: [TrackTitle] = []
    private var observations: [Player.Observation] = []

    init(_ player: Player) {
        observations.append(player.observe { [weak self] status in self?.lock.withLock { self?.statusLog.append(status) } })
        observations.append(player.observeTitles { [weak self] title in self?.lock.withLock { self?.titleLog.append(title) } })
    }

    var statuses: [PlayerStatus] { lock.withLock { statusLog } }
    var states: [PlayerState] { statuses.map(\.state) }
    var titles: [String] { lock.withLock { titleLog.map(\.title) } }
    var tracks: [TrackTitle] { lock.withLock { titleLog } }

    /// Polls until `condition` holds for the recorded statuses; false after `timeout` seconds.
    @discardableResult
    func wait(timeout: Double, until condition: (PlayerRecorder) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    /// Waits until the last published state satisfies `predicate`.
    @discardableResult
    func waitForState(timeout: Double, _ predicate: @escaping (PlayerState) -> Bool) -> Bool {
        wait(timeout: timeout) { $0.statuses.last.map { predicate($0.state) } ?? false }
    }

    /// The failure code of the last state, when it is a failure.
    var failureCode: PlaybackFailure.Code? {
        if case .failed(let failure, _)? = statuses.last?.state { return failure.code }
        return nil
    }
}

extension PlayerState {
    var isPlaying: Bool { self == .playing }
    var isFailed: Bool { if case .failed = self { return true } else { return false } }
}
