import Foundation
import Logging
import Threads

/// Runs a subsystem on a named thread and restarts it with ``Backoff`` when it throws,
/// reporting each failure (for the LCD) until it is stopped.
public final class SupervisedThread: @unchecked Sendable {
    private let name: String
    private let body: (SupervisedThread) throws -> Void
    private let onFailure: (Error?) -> Void
    private let logger: Logger
    private let backoff: Backoff
    private let lock = NSLock()
    private var stopped = false
    /// The body said it runs again: the next failure starts the back-off afresh.
    private var recoveredSinceFailure = false
    private let wake = DispatchSemaphore(value: 0)
    private let running = DispatchGroup()

    /// - Parameters:
    ///   - body: runs the subsystem; returning means it finished for good, throwing that it failed.
    ///   - backoff: delays between restarts (default 1 s doubling to 60 s).
    ///   - onFailure: told each failure, and nil once the subsystem runs again.
    public init(name: String, logger: Logger, backoff: Backoff = Backoff(), onFailure: @escaping (Error?) -> Void = { _ in },
                body: @escaping (SupervisedThread) throws -> Void) {
        self.name = name
        self.logger = logger
        self.backoff = backoff
        self.onFailure = onFailure
        self.body = body
    }

    public var isStopped: Bool { lock.withLock { stopped } }

    public func start() {
        running.enter()
        NamedThread.start(name: name) { [self] in
            defer { running.leave() }
            var backoff = self.backoff
            while !isStopped {
                do {
                    try body(self)
                    return
                } catch {
                    guard !isStopped else { return }
                    if lock.withLock({ recoveredSinceFailure }) {
                        backoff.reset()
                        lock.withLock { recoveredSinceFailure = false }
                    }
                    let delay = backoff.next()
                    logger.warning("subsystem failed; restarting", metadata: [
                        "subsystem": "\(name)", "error": "\(error)", "retry.seconds": "\(delay)",
                    ])
                    onFailure(error)
                    _ = wake.wait(timeout: .now() + delay)
                }
            }
        }
    }

    /// Tells the supervisor the subsystem is up again (clears the failure).
    public func recovered() {
        lock.withLock { recoveredSinceFailure = true }
        onFailure(nil)
    }

    /// Sleeps `seconds` unless stopped first; returns false when stopped.
    public func sleep(_ seconds: Double) -> Bool {
        _ = wake.wait(timeout: .now() + seconds)
        return !isStopped
    }

    /// Asks the subsystem to stop (``isStopped`` turns true, ``sleep(_:)`` returns at once). Any thread.
    public func stop() {
        lock.withLock { stopped = true }
        wake.signal()
    }

    /// ``stop()``, then waits up to `timeout` seconds for the thread to end. Any thread but its own.
    /// - Returns: whether it ended (or never started).
    public func stop(waitingUpTo timeout: Double) -> Bool {
        stop()
        return running.wait(timeout: .now() + timeout) == .success
    }
}
