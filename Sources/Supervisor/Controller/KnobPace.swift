/// How fast the knob turns, from its detents: spinning fast (the needle faster than
/// ``fastChannelsPerSecond``, or more than ``slowestJump`` channels in one detent, as acceleration moves
/// it) skips the sweep's sound and tuning ahead, until the knob slows down: no detent for
/// ``settleNanoseconds``.
///
/// Pure: time comes in as monotonic nanoseconds (the GPIO events' own timestamps).
public struct KnobPace: Sendable, Equatable {
    /// Faster than this the needle spins: no station is heard or tuned on the way (a station's sound takes
    /// a few hundred milliseconds to come; at this pace the needle has crossed it by then).
    public static let fastChannelsPerSecond = 15.0
    /// The most channels one detent may move and still count as a slow turn.
    public static let slowestJump = 2
    /// A pause this long ends a spin.
    public static let settleNanoseconds: UInt64 = 150_000_000

    private var lastDetent: UInt64?
    private var fastUntil: UInt64?

    public init() {}

    /// A detent moved the needle `steps` channels at `time`.
    public mutating func detent(_ steps: Int, at time: UInt64) {
        let channels = Double(steps.magnitude)
        var fast = channels > Double(Self.slowestJump)
        if let last = lastDetent {
            // Two detents at one instant (or a clock gone back) are as fast as can be.
            let seconds = time > last ? Double(time - last) / 1e9 : 0
            fast = fast || seconds <= 0 || channels / seconds > Self.fastChannelsPerSecond
        }
        lastDetent = time
        if fast {
            let (end, overflow) = time.addingReportingOverflow(Self.settleNanoseconds)
            fastUntil = overflow ? UInt64.max : end
        }
    }

    /// Whether the knob spins at `time`.
    public func isFast(at time: UInt64) -> Bool {
        guard let fastUntil else { return false }
        return time < fastUntil || fastUntil == UInt64.max
    }
}
