import Audio
import Foundation

/// A ``PlayerClock`` that moves only when a test says so: the start timeout, a long silence or a retry's
/// back-off pass at once, in the order the test wants, with no sleeping through them.
final class ManualClock: PlayerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    init(startingAt seconds: Double = 1000) {
        self.seconds = seconds
    }

    var now: Double { lock.withLock { seconds } }

    /// Moves time on by `interval` seconds.
    func advance(by interval: Double) {
        lock.withLock { seconds += max(interval, 0) }
    }
}
