import Foundation
import Logging
import Threads

/// The daemon's control socket: JSON lines over a Unix socket (no TCP), mode 0660.
///
/// One thread accepts (`wd-control`); each client gets a thread of its own and at most
/// ``maximumClients`` are served at once: at the limit no one more is taken until a client
/// leaves, and those who come meanwhile wait in the listen backlog. Requests are size-limited and
/// validated; a bad one gets an error reply and never reaches the radio. A client that sends no
/// complete request within the idle timeout (from its connection or its last reply) is closed, so
/// idle connections cannot keep the others out. A client that does not read its replies is
/// dropped after a send timeout. Subscribers (at most ``maximumSubscribers``) are exempt from the
/// idle timeout; each has a ``StatusOutbox`` the controller leaves statuses in without ever waiting
/// (the latest wins when it is full), emptied by the client's own thread, which drops a subscriber
/// whose write blocks past the send timeout.
public final class ControlServer: @unchecked Sendable {
    /// Answers a request (on the client's thread).
    public typealias Responder = (ControlRequest) -> ControlResponse
    /// Starts a subscription that offers each status to `send` until it returns false; returns a
    /// function that ends it. `send` never blocks: it leaves the status in the subscriber's outbox.
    public typealias Subscriber = (_ send: @escaping (RadioStatus) -> Bool) -> () -> Void

    public static let maximumRequestLength = 16 * 1024
    public static let maximumClients = 32
    /// Subscriptions at once: half the clients, so that requests always find a place.
    public static let maximumSubscribers = 16
    /// Seconds a client may take to send a complete request, from its connection or its last reply.
    public static let defaultIdleTimeout: Double = 10
    /// Seconds a write to a client may block before the client is dropped.
    public static let sendTimeoutSeconds = 2

    private let path: String
    private let idleTimeout: Double
    private let respond: Responder
    private let subscribe: Subscriber
    private let logger: Logger
    private var listener: UnixSocket?
    /// Guards `clients`, `subscribers` and `isStopping`; signalled when a client leaves.
    private let condition = NSCondition()
    private var clients: [ObjectIdentifier: UnixSocket] = [:]
    private var subscribers = 0
    private var isStopping = false
    /// The accepting thread and every client's threads, so ``stop(waitingUpTo:)`` can wait for them.
    private let threads = DispatchGroup()

    /// - Parameter idleTimeout: seconds a client may take to send a complete request
    ///   (``defaultIdleTimeout``; tests shorten it).
    public init(path: String, logger: Logger, idleTimeout: Double = ControlServer.defaultIdleTimeout,
                respond: @escaping Responder, subscribe: @escaping Subscriber) {
        self.path = path
        self.logger = logger
        self.idleTimeout = idleTimeout
        self.respond = respond
        self.subscribe = subscribe
    }

    /// Creates the socket and starts accepting. - Throws: ``UnixSocket/Failure``.
    public func start() throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let listener = try UnixSocket.listen(at: path, mode: 0o660)
        self.listener = listener
        threads.enter()
        NamedThread.start(name: "wd-control") { [weak self, threads] in
            defer { threads.leave() }
            while self?.waitForRoom() == true, let client = listener.accept() {
                self?.serve(client)
            }
        }
        logger.info("control socket listening", metadata: ["control.socket": "\(path)"])
    }

    /// Stops accepting, disconnects every client, removes the socket file and waits up to `timeout`
    /// seconds for the threads to end (a request being answered finishes first). Call once, from the
    /// thread that started it. - Returns: whether every thread ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 5) -> Bool {
        guard let listener else { return true }
        self.listener = nil
        // The accepting thread still uses the descriptor: shut it down to wake it, close it once it left.
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        unlink(path)
        condition.withLock {
            isStopping = true
            for client in clients.values { shutdown(client.descriptor, Int32(SHUT_RDWR)) }
            condition.broadcast()
        }
        let ended = threads.wait(timeout: .now() + timeout) == .success
        if ended { listener.close() }
        return ended
    }

    /// How many clients are being served (at most ``maximumClients``).
    var servedClientCount: Int { condition.withLock { clients.count } }

    /// Waits until fewer than ``maximumClients`` are served. - Returns: false once the server stops.
    private func waitForRoom() -> Bool {
        condition.withLock {
            while clients.count >= Self.maximumClients && !isStopping { condition.wait() }
            return !isStopping
        }
    }

    private func serve(_ client: UnixSocket) {
        let admitted = condition.withLock { () -> Bool in
            // A client accepted as the server stops is not served (stop already disconnected the others).
            guard !isStopping else { return false }
            clients[ObjectIdentifier(client)] = client
            return true
        }
        guard admitted else { return }
        client.setSendTimeout(seconds: Self.sendTimeoutSeconds)
        threads.enter()
        NamedThread.start(name: "wd-control-client") { [self] in
            defer {
                condition.withLock {
                    clients.removeValue(forKey: ObjectIdentifier(client))
                    condition.signal()
                }
                threads.leave()
            }
            converse(with: client)
        }
    }

    private func converse(with client: UnixSocket) {
        var reader = LineReader(maximumLength: Self.maximumRequestLength)
        var deadline = DispatchTime.now() + idleTimeout
        while true {
            guard client.waitUntilReadable(before: deadline) else {
                logger.debug("control client closed: no request within the idle timeout")
                return
            }
            let bytes = client.read()
            guard !bytes.isEmpty else { return }
            for line in reader.feed(bytes) {
                switch line {
                case .tooLong:
                    client.write(Self.encode(.failure("request longer than \(Self.maximumRequestLength) bytes")))
                    return
                case .line(let text):
                    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                    guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(text.utf8)) else {
                        guard client.write(Self.encode(.failure("not a JSON request object with a \"command\""))) else { return }
                        deadline = DispatchTime.now() + idleTimeout
                        continue
                    }
                    guard ControlRequest.commands.contains(request.command) else {
                        guard client.write(Self.encode(.failure("unknown command '\(request.command)'"))) else { return }
                        deadline = DispatchTime.now() + idleTimeout
                        continue
                    }
                    if request.command == "subscribe" {
                        streamStatus(to: client)
                        return
                    }
                    guard client.write(Self.encode(respond(request))) else { return }
                    deadline = DispatchTime.now() + idleTimeout
                }
            }
        }
    }

    /// Sends a status line per change until the client leaves or stops reading (then it is dropped).
    private func streamStatus(to client: UnixSocket) {
        let admitted = condition.withLock { () -> Bool in
            guard subscribers < Self.maximumSubscribers else { return false }
            subscribers += 1
            return true
        }
        guard admitted else {
            client.write(Self.encode(.failure("too many subscribers")))
            return
        }
        defer { condition.withLock { subscribers -= 1 } }
        let outbox = StatusOutbox()
        let end = subscribe { status in outbox.offer(status) }
        // The client ends a subscription by closing its end.
        threads.enter()
        NamedThread.start(name: "wd-control-watch") { [threads] in
            defer { threads.leave() }
            while !client.read().isEmpty {}
            outbox.close()
        }
        while let status = outbox.next() {
            guard client.write(Self.encode(ControlResponse(ok: true, status: status))) else {
                logger.debug("control subscriber dropped: it does not read")
                break
            }
        }
        outbox.close()
        end()
        // Wakes the watching thread of a client that is still connected.
        shutdown(client.descriptor, Int32(SHUT_RDWR))
    }

    static func encode(_ response: ControlResponse) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(response)) ?? Data(#"{"ok":false,"error":"unencodable reply"}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// A flag set once, read from other threads.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
