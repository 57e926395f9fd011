/// How the player follows HTTP Live Streaming stations.
public struct HLSSettings: Equatable, Sendable {
    /// The most bits per second a variant may announce (`BANDWIDTH`) to be chosen from a master playlist;
    /// nil: the highest audio-only variant (`[audio] hls_max_bandwidth`).
    public var maximumBandwidth: Int?

    public init(maximumBandwidth: Int? = nil) {
        self.maximumBandwidth = maximumBandwidth
    }
}
