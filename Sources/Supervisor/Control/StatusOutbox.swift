import Foundation
import WavedialControl

/// A subscriber's outbox on the control socket: the statuses not yet written, handed from the
/// controller's queue to the subscriber's writer thread. The controller never waits on it: it holds
/// at most ``capacity`` statuses, and one more pushes the oldest out (the latest always wins), so a
/// reader that keeps up sees every status, a slow one the latest, and only the subscriber's own
/// writer ever waits on its socket.
final class StatusOutbox: @unchecked Sendable {
    /// Statuses held for a writer that is behind.
    static let capacity = 64

    private let condition = NSCondition()
    private var pending: [RadioStatus] = []
    private var isClosed = false

    /// Leaves `status` for the writer, pushing out the oldest when full; never blocks.
    /// - Returns: false once the outbox is closed (the subscriber left or was dropped).
    func offer(_ status: RadioStatus) -> Bool {
        condition.withLock {
            guard !isClosed else { return false }
            if pending.count >= Self.capacity { pending.removeFirst() }
            pending.append(status)
            condition.signal()
            return true
        }
    }

    /// The oldest status not yet written, waiting until there is one; nil once the outbox is closed.
    func next() -> RadioStatus? {
        condition.withLock {
            while pending.isEmpty && !isClosed { condition.wait() }
            guard !isClosed else { return nil }
            return pending.removeFirst()
        }
    }

    /// Ends the subscription's deliveries: ``offer(_:)`` refuses and ``next()`` returns nil from now on.
    func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }
}
