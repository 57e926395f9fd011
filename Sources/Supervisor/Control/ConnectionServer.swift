import Foundation
import Logging
import Threads
import WavedialControl

/// Serves the clients of a listening socket, each on a thread of its own, at most `maximumClients`
/// at once: at the limit no one more is taken until a client leaves, and those who come meanwhile
/// wait in the listen backlog. What is said on a connection is the protocol's (`converse`); the
/// control socket, the MPD server and the web page each have one over this.
///
/// Owns its threads: ``stop(waitingUpTo:)`` disconnects every client and waits for them all.
public final class ConnectionServer: @unchecked Sendable {
    /// Holds a conversation with one client, on the client's thread; the connection closes when it returns.
    public typealias Conversation = (StreamSocket) -> Void

    private let name: String
    private let maximumClients: Int
    private let sendTimeoutSeconds: Int
    private let admits: (StreamSocket) -> Bool
    private let converse: Conversation
    private var listener: StreamSocket?
    /// Guards `clients` and `isStopping`; signalled when a client leaves.
    private let condition = NSCondition()
    private var clients: [ObjectIdentifier: StreamSocket] = [:]
    private var isStopping = false
    /// The accepting thread and every client's threads, so ``stop(waitingUpTo:)`` can wait for them.
    private let threads = DispatchGroup()

    /// - Parameters:
    ///   - name: the accepting thread's name; clients' threads are named `name-client`.
    ///   - sendTimeoutSeconds: how long a write to a client may block before it fails (a client
    ///     that does not read).
    ///   - admits: whether an accepted client is served; one refused is closed at once.
    public init(name: String, maximumClients: Int, sendTimeoutSeconds: Int,
                admits: @escaping (StreamSocket) -> Bool = { _ in true }, converse: @escaping Conversation) {
        self.name = name
        self.maximumClients = maximumClients
        self.sendTimeoutSeconds = sendTimeoutSeconds
        self.admits = admits
        self.converse = converse
    }

    /// Starts accepting on `listener`, which the server owns from now on.
    public func start(listening listener: StreamSocket) {
        self.listener = listener
        startThread(named: name) { [weak self] in
            while self?.waitForRoom() == true, let client = listener.accept() {
                self?.serve(client)
            }
        }
    }

    /// Runs `body` on a thread named `name` that ``stop(waitingUpTo:)`` waits for (a conversation's helper).
    public func startThread(named name: String, _ body: @escaping () -> Void) {
        threads.enter()
        NamedThread.start(name: name) { [threads] in
            defer { threads.leave() }
            body()
        }
    }

    /// Stops accepting, disconnects every client and waits up to `timeout` seconds for the threads to
    /// end (a request being answered finishes first). Call once, from the thread that started it.
    /// - Returns: whether every thread ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double) -> Bool {
        guard let listener else { return true }
        self.listener = nil
        // The accepting thread still uses the descriptor: shut it down to wake it, close it once it left.
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        condition.withLock {
            isStopping = true
            for client in clients.values { shutdown(client.descriptor, Int32(SHUT_RDWR)) }
            condition.broadcast()
        }
        let ended = threads.wait(timeout: .now() + timeout) == .success
        if ended { listener.close() }
        return ended
    }

    /// How many clients are being served (at most `maximumClients`).
    public var servedClientCount: Int { condition.withLock { clients.count } }

    /// Waits until fewer than `maximumClients` are served. - Returns: false once the server stops.
    private func waitForRoom() -> Bool {
        condition.withLock {
            while clients.count >= maximumClients && !isStopping { condition.wait() }
            return !isStopping
        }
    }

    private func serve(_ client: StreamSocket) {
        guard admits(client) else { return }
        let admitted = condition.withLock { () -> Bool in
            // A client accepted as the server stops is not served (stop already disconnected the others).
            guard !isStopping else { return false }
            clients[ObjectIdentifier(client)] = client
            return true
        }
        guard admitted else { return }
        client.setSendTimeout(seconds: sendTimeoutSeconds)
        startThread(named: "\(name)-client") { [self] in
            defer {
                condition.withLock {
                    clients.removeValue(forKey: ObjectIdentifier(client))
                    condition.signal()
                }
            }
            converse(client)
        }
    }
}
