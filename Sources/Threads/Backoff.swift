/// How long to wait before each new try after a failure: doubling from ``initialDelay``, at most ``fastCap``
/// while the outage is younger than ``fastWindow``, then at most ``maximumDelay``. The radio's one backoff: a
/// station's reconnect (fast at first: a restarted server is heard again within half a second, then easing
/// off so a dead station is not hammered), a lost sound card's, a warm station's, a failed subsystem's
/// restart and the catalog's next sync all wait by it.
public struct Backoff: Equatable, Sendable {
    /// Wait before the first retry (default 0.1 s).
    public var initialDelay: Double
    /// Delays double up to this while the outage is young (default 0.25 s: with Icecast's own 0.3 s to its
    /// first byte, sound is back about half a second after the server).
    public var fastCap: Double
    /// How long the outage may last before backing off further (default 60 s).
    public var fastWindow: Double
    /// The longest wait (default 5 s: a returning server is heard again within 5 s).
    public var maximumDelay: Double
    /// Tries counted by ``next()`` since the last ``reset()``.
    public private(set) var attempt = 0

    public init(initialDelay: Double = 0.1, fastCap: Double = 0.25, fastWindow: Double = 60, maximumDelay: Double = 5) {
        self.initialDelay = initialDelay
        self.fastCap = fastCap
        self.fastWindow = fastWindow
        self.maximumDelay = maximumDelay
    }

    /// Doubling from `initial` up to `maximum`, whatever the outage's age.
    public init(initial: Double, maximum: Double) {
        self.init(initialDelay: initial, fastCap: maximum, fastWindow: 0, maximumDelay: maximum)
    }

    /// The wait before retry number `attempt` (0-based) of an outage that began `outage` seconds ago.
    public func delay(attempt: Int, outage: Double) -> Double {
        let doubled = initialDelay * Double(1 << min(max(attempt, 0), 30))
        return min(doubled, outage < fastWindow ? fastCap : maximumDelay)
    }

    /// The wait before the next try, counting the try (for a caller that keeps no outage clock of its own).
    public mutating func next() -> Double {
        defer { attempt += 1 }
        return delay(attempt: attempt, outage: .infinity)
    }

    /// The next try is a first one again (the failing thing recovered).
    public mutating func reset() { attempt = 0 }
}
