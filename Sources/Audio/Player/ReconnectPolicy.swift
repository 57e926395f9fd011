/// How long to wait before each reconnect attempt (to a station, or to a lost ALSA device).
///
/// Fast at first (a dropped connection or a restarted server should be heard again within
/// half a second), then backing off so a dead station is not hammered.
public struct ReconnectPolicy: Equatable, Sendable {
    /// Wait before the first retry (default 0.1 s).
    public var initialDelay: Double
    /// Delays double up to this while the outage is young (default 0.25 s: with icecast's own 0.3 s to first
    /// byte, sound is back about half a second after the server).
    public var fastCap: Double
    /// How long the outage may last before backing off further (default 60 s).
    public var fastWindow: Double
    /// The longest wait (default 5 s: a returning server is heard again within 5 s).
    public var maximumDelay: Double

    public init(initialDelay: Double = 0.1, fastCap: Double = 0.25, fastWindow: Double = 60, maximumDelay: Double = 5) {
        self.initialDelay = initialDelay
        self.fastCap = fastCap
        self.fastWindow = fastWindow
        self.maximumDelay = maximumDelay
    }

    /// The wait before retry number `attempt` (0-based) of an outage that began `outage` seconds ago.
    public func delay(attempt: Int, outage: Double) -> Double {
        let doubled = initialDelay * Double(1 << min(attempt, 20))
        return min(doubled, outage < fastWindow ? fastCap : maximumDelay)
    }
}
