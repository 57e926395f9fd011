import Threads

/// How the player keeps stations warm (``Player/warm(_:budgetKbps:)``): connected and buffering the
/// latest seconds of their compressed audio, so tuning to one plays at once.
public struct WarmSettings: Equatable, Sendable {
    /// Seconds of compressed audio a warm station keeps at its live edge (default 5: about an Icecast
    /// burst, so an adopted station starts with the lead a fresh connection would have).
    public var bufferSeconds: Double
    /// The most bytes a warm station keeps, whatever its bitrate (default 200,000: 5 s at 320 kbit/s).
    public var maximumBufferBytes: Int
    /// Warm connections are dropped when the player has been paused, stopped or idle this long
    /// (default 60 s); they come back when a station plays again.
    public var idleSeconds: Double
    /// The bitrate a station is counted at against the budget until its own is announced or measured
    /// (default 128 kbit/s).
    public var assumedKbps: Int
    /// When a warm station that failed is tried again (default 10 s, doubling up to 10 minutes).
    public var retry: Backoff
    /// When warming starts again after the link proved too slow for it (default 1 minute, doubling up to 30).
    public var slowLinkRetry: Backoff

    public init(bufferSeconds: Double = 5, maximumBufferBytes: Int = 200_000, idleSeconds: Double = 60,
                assumedKbps: Int = 128,
                retry: Backoff = Backoff(initial: 10, maximum: 600),
                slowLinkRetry: Backoff = Backoff(initial: 60, maximum: 1800)) {
        self.bufferSeconds = bufferSeconds
        self.maximumBufferBytes = maximumBufferBytes
        self.idleSeconds = idleSeconds
        self.assumedKbps = assumedKbps
        self.retry = retry
        self.slowLinkRetry = slowLinkRetry
    }
}
