import Glibc

/// System calls that a signal may interrupt (`EINTR`), made again until they are not: the one place the
/// radio retries an interruption.
public enum Interruptible {
    /// Calls `call` again while it fails with `EINTR`.
    /// - Returns: its last result; when that is negative, errno says why.
    @inlinable
    public static func retry<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            guard result < 0, errno == EINTR else { return result }
        }
    }

    /// Sleeps at least `microseconds` (`nanosleep`, resumed with what remains after a signal).
    public static func sleep(microseconds: Int) {
        let microseconds = max(microseconds, 0)
        var request = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
