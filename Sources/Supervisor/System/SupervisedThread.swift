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
    public init(name: String, logger: Logger, backoff: Backoff = Backoff(initial: 1, maximum: 60), onFailure: @escaping (Error?) -> Void = { _ in },
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

    /// The body of a subsystem that is a reader thread of its own (the GPIO input, the IR remote): makes
    /// the reader with the failure handler it reports to, starts it, says it recovered, and keeps it until
    /// the supervisor stops (then stops it and returns) or it fails (then stops it and throws its error,
    /// or `fallback` when it gave none, so the supervisor retries it after its back-off).
    public func keep(_ makeReader: (_ failed: @escaping (Error) -> Void) throws -> SupervisedReader,
                     fallback: Error) throws {
        let failed = DispatchSemaphore(value: 0)
        let failure = NSLock()
        var readerError: Error?
        let reader = try makeReader { error in
            failure.withLock { readerError = error }
            failed.signal()
        }
        try reader.start()
        recovered()
        while !isStopped {
            if failed.wait(timeout: .now() + 0.5) == .success {
                reader.stop()
                throw failure.withLock { readerError } ?? fallback
            }
        }
        reader.stop()
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

    /// Ends the ``sleep(_:)`` under way, or the next one, at once. Any thread.
    public func interruptSleep() {
        wake.signal()
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
