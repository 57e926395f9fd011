import Foundation
import Logging

/// Runs a subsystem on a named thread and restarts it with ``Backoff`` when it throws,
/// reporting each failure (for the LCD) until it is stopped.
public final class SupervisedThread: @unchecked Sendable {
    private let name: String
    private let body: (SupervisedThread) throws -> Void
    private let onFailure: (Error?) -> Void
    private let logger: Logger
    private let lock = NSLock()
    private var stopped = false
    private let wake = DispatchSemaphore(value: 0)
    private let running = DispatchGroup()

    /// - Parameters:
    ///   - body: runs the subsystem; returning means it finished for good, throwing that it failed.
    ///   - onFailure: told each failure, and nil once the subsystem runs again.
    public init(name: String, logger: Logger, onFailure: @escaping (Error?) -> Void = { _ in },
                body: @escaping (SupervisedThread) throws -> Void) {
        self.name = name
        self.logger = logger
        self.onFailure = onFailure
        self.body = body
    }

    public var isStopped: Bool { lock.withLock { stopped } }

    public func start() {
        running.enter()
        let thread = Thread { [self] in
            defer { running.leave() }
            var backoff = Backoff()
            while !isStopped {
                do {
                    try body(self)
                    return
                } catch {
                    guard !isStopped else { return }
                    let delay = backoff.next()
                    logger.warning("subsystem failed; restarting", metadata: [
                        "subsystem": "\(name)", "error": "\(error)", "retry.seconds": "\(delay)",
                    ])
                    onFailure(error)
                    _ = wake.wait(timeout: .now() + delay)
                }
            }
        }
        thread.name = name
        thread.start()
    }

    /// Tells the supervisor the subsystem is up again (clears the failure).
    public func recovered() { onFailure(nil) }

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
