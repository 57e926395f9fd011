/// The sleep timer, as pure arithmetic on the controller's monotonic nanoseconds: when it ends, how loud the
/// radio is in the fade before that, and the long press's cycle. Owned by the controller's queue.
struct SleepTimer: Equatable {
    /// The long press on pause steps through these, then off.
    static let cycleMinutes = [15, 30, 60]

    /// When the radio pauses (monotonic nanoseconds); nil when off.
    private(set) var deadline: UInt64?
    /// What it was set to, in seconds: the cycle's next step is the first above it.
    private(set) var setSeconds = 0

    var isOn: Bool { deadline != nil }

    /// Runs for `seconds` from `now` (replacing any timer); 0 or less turns it off.
    mutating func set(seconds: Int, at now: UInt64) {
        guard seconds > 0 else {
            deadline = nil
            setSeconds = 0
            return
        }
        deadline = now &+ UInt64(seconds) &* 1_000_000_000
        setSeconds = seconds
    }

    /// The long press: the first of ``cycleMinutes`` above what it was set to, or off past the last.
    /// - Returns: the seconds it now runs for, 0 when off.
    @discardableResult
    mutating func cycle(at now: UInt64) -> Int {
        let next = isOn ? Self.cycleMinutes.first { $0 * 60 > setSeconds } : Self.cycleMinutes.first
        set(seconds: (next ?? 0) * 60, at: now)
        return setSeconds
    }

    /// Whole seconds left (rounded up), nil when off.
    func remainingSeconds(at now: UInt64) -> Int? {
        guard let deadline else { return nil }
        guard deadline > now else { return 0 }
        return Int((deadline - now + 999_999_999) / 1_000_000_000)
    }

    /// The volume's share in the last `fadeSeconds` before the deadline: 1 down to 0, straight; 1 when off.
    func level(at now: UInt64, fadeSeconds: Int) -> Double {
        guard let deadline else { return 1 }
        guard now < deadline else { return 0 }
        let fade = UInt64(max(fadeSeconds, 0)) * 1_000_000_000
        let left = deadline - now
        guard fade > 0, left < fade else { return 1 }
        return Double(left) / Double(fade)
    }

    /// Whether the time is up.
    func isDue(at now: UInt64) -> Bool { deadline.map { now >= $0 } ?? false }
}
