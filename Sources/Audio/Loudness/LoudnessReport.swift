/// A station's integrated loudness as the player measured it while it played (EBU R128, before any gain).
public struct LoudnessReport: Equatable, Sendable {
    public var station: PlayableStation
    /// Integrated loudness in LUFS, finite.
    public var integratedLUFS: Double
    /// Seconds of audio above the silence gate it was measured over.
    public var measuredSeconds: Double
    /// The station's last report of this tune: it was tuned away from, stopped, or the player shut down.
    public var isLast: Bool

    public init(station: PlayableStation, integratedLUFS: Double, measuredSeconds: Double, isLast: Bool) {
        self.station = station
        self.integratedLUFS = integratedLUFS
        self.measuredSeconds = measuredSeconds
        self.isLast = isLast
    }
}
