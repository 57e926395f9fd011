import Threads

/// A one-way switch that threads at work check and sleep on: once ``stop()`` is called, ``isStopped``
/// holds and every ``sleep(seconds:)`` returns at once. Any thread.
final class StopLatch: @unchecked Sendable {
    private let condition = ConditionLock()
    private var stopped = false

    var isStopped: Bool { condition.withLock { stopped } }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Sleeps up to `seconds` (monotonic). - Returns: false when stopped (before or during the sleep).
    func sleep(seconds: Double) -> Bool {
        let deadline = ConditionLock.Deadline.after(seconds: max(0, seconds))
        return condition.withLock {
            while !stopped {
                if !condition.wait(until: deadline) { break }
            }
            return !stopped
        }
    }
}
