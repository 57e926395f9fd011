/// Makes a fast-turned knob move further: a detent that follows the previous one in the same
/// direction sooner than `thresholdNanoseconds` counts `threshold / interval` steps (200 ms
/// threshold: 100 ms apart → 2, 50 ms → 4, 20 ms → 10), at most `maximumStepsPerDetent`.
/// A reversal or a pause resets to one step per detent. A value type; time comes from event timestamps.
public struct DetentAcceleration: Sendable, Equatable {
    /// Whether detents are accelerated at all; when off every detent is one step.
    public var isEnabled: Bool
    /// Detents closer together than this are accelerated.
    public var thresholdNanoseconds: UInt64
    /// The most steps a single detent can move.
    public var maximumStepsPerDetent: Int

    private var lastDetent: (time: UInt64, direction: Int)?

    /// The defaults: on, 200 ms, at most 10 steps per detent.
    public init(isEnabled: Bool = true, thresholdNanoseconds: UInt64 = 200_000_000, maximumStepsPerDetent: Int = 10) {
        self.isEnabled = isEnabled
        self.thresholdNanoseconds = thresholdNanoseconds
        self.maximumStepsPerDetent = max(1, maximumStepsPerDetent)
    }

    /// Returns the steps that `detents` (signed) completed at `time` move.
    public mutating func steps(for detents: Int, at time: UInt64) -> Int {
        guard detents != 0 else { return 0 }
        let direction = detents > 0 ? 1 : -1
        defer { lastDetent = (time, direction) }
        guard isEnabled, let last = lastDetent, last.direction == direction, time > last.time else {
            return detents
        }
        // Several detents decoded at once share the interval.
        let interval = (time - last.time) / UInt64(abs(detents))
        guard interval < thresholdNanoseconds else { return detents }
        let factor = min(UInt64(maximumStepsPerDetent), thresholdNanoseconds / max(interval, 1))
        return detents * Int(factor)
    }

    public static func == (lhs: DetentAcceleration, rhs: DetentAcceleration) -> Bool {
        lhs.isEnabled == rhs.isEnabled && lhs.thresholdNanoseconds == rhs.thresholdNanoseconds
            && lhs.maximumStepsPerDetent == rhs.maximumStepsPerDetent
    }
}
