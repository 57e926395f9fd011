/// The loudness gain of one station: target minus its loudness, from a guess at tune to the measured
/// integrated loudness, changing slowly enough not to be heard.
///
/// The estimate starts at the guess (the station's stored loudness, else ``typicalLoudness``) and moves to
/// the measurement as measured audio accumulates, fully after a trust time: short when the station measures
/// louder than the guess (a station too loud is cut at once, it must never blast), longer when it measures
/// quieter (its first seconds may be a quiet passage); longer again for a stored value than for the
/// typical guess (a few seconds of a quiet intro must not undo what was measured before). The gain follows
/// the estimate at most ``settlingRate`` dB a second during the first ``settlingSeconds`` of measured audio,
/// then at most ``steadyRate``: a settling at tune, no pumping after it. It stays within ``gainRange``; a
/// measurement that is not finite (silence) moves nothing. Pure: time is the measured audio's duration.
public struct LoudnessGainComputer: Sendable {
    /// The gain is kept within this many dB: a near-silent station is not raised into its noise floor,
    /// a loud one not cut to nothing.
    public static let gainRange: ClosedRange<Double> = -20...12
    /// Internet radio is mostly mastered this loud (LUFS): the guess for a station never measured.
    public static let typicalLoudness = -16.0
    /// Seconds of measured audio after which the measurement alone counts: (louder, quieter) than the guess.
    static let guessTrustSeconds = (louder: 0.5, quieter: 3.0)
    static let storedTrustSeconds = (louder: 2.0, quieter: 6.0)
    static let settlingSeconds = 8.0
    /// dB a second while settling: a few dB in well under a second, heard as a short fade.
    static let settlingRate = 12.0
    /// dB a second once settled: slower than programme dynamics, so they are not squashed.
    static let steadyRate = 1.0

    /// The integrated loudness it brings the station to (LUFS).
    public let target: Double
    private let guess: Double
    private let trustSeconds: (louder: Double, quieter: Double)
    /// The gain for the audio now, in dB.
    public private(set) var gain: Double

    /// - Parameter storedLoudness: what the station measured before (LUFS), nil for a station never measured.
    public init(target: Double, storedLoudness: Double?) {
        self.target = target
        let stored = storedLoudness.flatMap { $0.isFinite ? $0 : nil }
        guess = stored ?? Self.typicalLoudness
        trustSeconds = stored == nil ? Self.guessTrustSeconds : Self.storedTrustSeconds
        gain = Self.bounded(target - guess)
    }

    /// The station's loudness as it is estimated now (LUFS), given the measurement.
    public func estimate(integrated: Double, measuredSeconds: Double) -> Double {
        guard integrated.isFinite, measuredSeconds.isFinite, measuredSeconds > 0 else { return guess }
        let trust = integrated > guess ? trustSeconds.louder : trustSeconds.quieter
        let weight = min(measuredSeconds / trust, 1)
        return guess + weight * (integrated - guess)
    }

    /// Moves the gain toward the estimate for `seconds` more audio, whose integrated loudness measures
    /// `integrated` (LUFS) over `measuredSeconds` of audio above the silence gate. - Returns: the new gain (dB).
    @discardableResult
    public mutating func update(integrated: Double, measuredSeconds: Double, seconds: Double) -> Double {
        let wanted = Self.bounded(target - estimate(integrated: integrated, measuredSeconds: measuredSeconds))
        guard seconds.isFinite, seconds > 0 else { return gain }
        let settling = !(measuredSeconds >= Self.settlingSeconds)
        let step = (settling ? Self.settlingRate : Self.steadyRate) * seconds
        gain = Self.bounded(min(max(wanted, gain - step), gain + step))
        return gain
    }

    private static func bounded(_ gain: Double) -> Double {
        guard gain.isFinite else { return 0 }
        return min(max(gain, gainRange.lowerBound), gainRange.upperBound)
    }
}
