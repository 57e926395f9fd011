import Foundation
import WavedialControl

/// Turns the radio's statuses into MPD's changed subsystems and hands them to every connected client,
/// waking a client's thread through a pipe it polls beside its socket (a client waiting in `idle`).
///
/// ``offer(_:)`` runs on the controller's queue and never waits on a client: it only sets flags and
/// writes a byte to a non-blocking pipe.
final class MpdChangeFeed: @unchecked Sendable {
    /// One client's share of the feed: the subsystems changed since it last took them.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var changes: Set<MpdSubsystem> = []
        /// Readable when changes wait: the client polls it beside its socket.
        let wakeDescriptor: Int32
        private let signalDescriptor: Int32

        /// - Throws: ``StreamSocket/Failure`` when no pipe can be made.
        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw StreamSocket.Failure(call: "pipe", code: errno) }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
            wakeDescriptor = ends[0]
            signalDescriptor = ends[1]
        }

        deinit {
            close(wakeDescriptor)
            close(signalDescriptor)
        }

        func add(_ new: Set<MpdSubsystem>) {
            lock.withLock { changes.formUnion(new) }
            // A full pipe already wakes the client: the byte is not needed.
            var byte: UInt8 = 1
            _ = write(signalDescriptor, &byte, 1)
        }

        /// The changes since the last call, emptying the pipe.
        func take() -> Set<MpdSubsystem> {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeDescriptor, &buffer, buffer.count) > 0 {}
            return lock.withLock {
                defer { changes = [] }
                return changes
            }
        }
    }

    private let lock = NSLock()
    private var inboxes: [ObjectIdentifier: Inbox] = [:]
    private var last: RadioStatus?
    private var version = 1

    /// The queue's version: one more each time the band shown changes.
    var playlistVersion: Int { lock.withLock { version } }

    /// A status from the radio (on the controller's queue). - Returns: true (the feed always wants more).
    func offer(_ status: RadioStatus) -> Bool {
        let (changes, receivers) = lock.withLock { () -> (Set<MpdSubsystem>, [Inbox]) in
            let changes = MpdSubsystem.changes(from: last, to: status)
            last = status
            if changes.contains(.playlist) { version += 1 }
            return (changes, Array(inboxes.values))
        }
        guard !changes.isEmpty else { return true }
        for inbox in receivers { inbox.add(changes) }
        return true
    }

    func register(_ inbox: Inbox) { lock.withLock { inboxes[ObjectIdentifier(inbox)] = inbox } }
    func unregister(_ inbox: Inbox) { _ = lock.withLock { inboxes.removeValue(forKey: ObjectIdentifier(inbox)) } }
}
