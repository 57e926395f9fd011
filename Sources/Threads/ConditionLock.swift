import Glibc

/// A mutex with a condition variable, for state that one thread waits on and others change.
///
/// Timed waits run on `CLOCK_MONOTONIC`, so setting the wall clock (NTP on a Pi without a
/// real-time clock steps it by years at boot) neither stretches nor cuts them short. Built on
/// pthreads rather than Foundation's `NSCondition` so the audio path links no Foundation.
public final class ConditionLock: @unchecked Sendable {
    /// A point in time on the monotonic clock, for waits that loop over spurious wake-ups.
    public struct Deadline: Sendable {
        fileprivate let time: timespec

        /// `seconds` from now.
        public static func after(seconds: Double) -> Deadline {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let whole = seconds.rounded(.down)
            var time = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
            if time.tv_nsec >= 1_000_000_000 {
                time.tv_sec += 1
                time.tv_nsec -= 1_000_000_000
            }
            return Deadline(time: time)
        }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a ``broadcast()``; the lock must be held, and is held again on return.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a ``broadcast()`` until `deadline`; false once the deadline has passed.
    /// The lock must be held, and is held again on return.
    public func wait(until deadline: Deadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
