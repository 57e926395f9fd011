#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds: the clock of the kernel's GPIO event timestamps.
public enum MonotonicClock {
    /// Now, in nanoseconds. Any thread. Wraps `clock_gettime(CLOCK_MONOTONIC)`.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
