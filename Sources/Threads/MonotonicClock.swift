import Glibc

/// `CLOCK_MONOTONIC`: the radio's one clock for intervals, timeouts and deadlines (the kernel's GPIO event
/// timestamps are on it too). Never goes back; the origin is the boot. Any thread.
public struct MonotonicClock: Sendable {
    public init() {}

    /// Now, in seconds.
    public var now: Double { Double(Self.now()) / 1e9 }

    /// Now, in nanoseconds (`clock_gettime`).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
