import Threads

/// The player's sense of time: the start timeout, how long a station has been silent, the retries'
/// back-off (the station's and the device's). Injected so tests move time on instead of sleeping through it.
/// The pacing of audio the player makes itself (hiss, the alarm's tone) follows the device, on real time.
public protocol PlayerClock: Sendable {
    /// Seconds on a monotonic clock (any origin); never goes back.
    var now: Double { get }
}

/// The system's monotonic clock: the player's clock outside tests.
extension MonotonicClock: PlayerClock {}
