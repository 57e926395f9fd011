import Foundation
import Logging
import WavedialControl

/// The daemon's control socket: JSON lines over a Unix socket (no TCP), mode 0660.
///
/// A ``ConnectionServer`` accepts (`wd-control`) and serves each client on a thread of its own, at
/// most ``maximumClients`` at once. Requests are size-limited and
/// validated; a bad one gets an error reply and never reaches the radio. A client that sends no
/// complete first request within ``defaultFirstRequestTimeout`` of connecting (the CLI sends its own at
/// once), or none within the idle timeout of its last reply, is closed, so silent connections cannot
/// keep the others (the CLI) out for long. A client that does not read its replies is
/// dropped after a send timeout. Subscribers (at most ``maximumSubscribers``) are exempt from the
/// idle timeout; each has a ``StatusOutbox`` the controller leaves statuses in without ever waiting
/// (the latest wins when it is full), emptied by the client's own thread, which drops a subscriber
/// whose write blocks past the send timeout.
public final class ControlServer: @unchecked Sendable {
    /// Answers a request (on the client's thread).
    public typealias Responder = (ControlCommand) -> ControlResponse
    /// Starts a subscription that offers each status to `send` until it returns false; returns a
    /// function that ends it. `send` never blocks: it leaves the status in the subscriber's outbox.
    public typealias Subscriber = (_ send: @escaping @Sendable (RadioStatus) -> Bool) -> () -> Void

    public static let maximumRequestLength = 16 * 1024
    public static let maximumClients = 32
    /// Subscriptions at once: half the clients, so that requests always find a place.
    public static let maximumSubscribers = 16
    /// Seconds a client may take to send a complete request after its last reply.
    public static let defaultIdleTimeout: Double = 10
    /// Seconds a client may take to send its first complete request after connecting.
    public static let defaultFirstRequestTimeout: Double = 1
    /// Seconds a write to a client may block before the client is dropped.
    public static let sendTimeoutSeconds = 2

    private let path: String
    private let idleTimeout: Double
    private let firstRequestTimeout: Double
    private let respond: Responder
    private let subscribe: Subscriber
    private let logger: Logger
    private var connections: ConnectionServer?
    /// The socket file this server bound: the only one it removes.
    private var socketFile: SocketFile?
    /// Guards `subscribers`.
    private let lock = NSLock()
    private var subscribers = 0

    /// - Parameters:
    ///   - idleTimeout: seconds a client may take to send a complete request after a reply
    ///     (``defaultIdleTimeout``; tests shorten it).
    ///   - firstRequestTimeout: the same for the first request, from the connection (``defaultFirstRequestTimeout``).
    public init(path: String, logger: Logger, idleTimeout: Double = ControlServer.defaultIdleTimeout,
                firstRequestTimeout: Double = ControlServer.defaultFirstRequestTimeout,
                respond: @escaping Responder, subscribe: @escaping Subscriber) {
        self.path = path
        self.logger = logger
        self.idleTimeout = idleTimeout
        self.firstRequestTimeout = firstRequestTimeout
        self.respond = respond
        self.subscribe = subscribe
    }

    /// Creates the socket and starts accepting. - Throws: ``StreamSocket/Failure``.
    public func start() throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let listener = try StreamSocket.listen(at: path, mode: 0o660)
        socketFile = SocketFile(path: path)
        let connections = ConnectionServer(name: "wd-control", maximumClients: Self.maximumClients,
                                           sendTimeoutSeconds: Self.sendTimeoutSeconds) { [unowned self] client in
            converse(with: client)
        }
        connections.start(listening: listener)
        self.connections = connections
        logger.info("control socket listening", metadata: ["control.socket": "\(path)"])
    }

    /// Stops accepting, disconnects every client, removes the socket file (when it is still the one this
    /// server bound, not another daemon's made at the same path since) and waits up to `timeout` seconds
    /// for the threads to end (a request being answered finishes first). Call once, from the thread that
    /// started it. - Returns: whether every thread ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 5) -> Bool {
        guard let connections else { return true }
        socketFile?.removeIfUnchanged()
        return connections.stop(waitingUpTo: timeout)
    }

    /// How many clients are being served (at most ``maximumClients``).
    var servedClientCount: Int { connections?.servedClientCount ?? 0 }

    private func converse(with client: StreamSocket) {
        var reader = LineReader(maximumLength: Self.maximumRequestLength)
        var deadline = DispatchTime.now() + firstRequestTimeout
        while true {
            guard client.waitUntilReadable(before: deadline) else {
                logger.debug("control client closed: no request in time")
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
                    let command: ControlCommand
                    do {
                        command = try ControlCommand(wireLine: text)
                    } catch {
                        guard client.write(Self.encode(.failure(error.description))) else { return }
                        deadline = DispatchTime.now() + idleTimeout
                        continue
                    }
                    if command == .subscribe {
                        streamStatus(to: client)
                        return
                    }
                    guard client.write(Self.encode(respond(command))) else { return }
                    deadline = DispatchTime.now() + idleTimeout
                }
            }
        }
    }

    /// Sends a status line per change until the client leaves or stops reading (then it is dropped).
    private func streamStatus(to client: StreamSocket) {
        let admitted = lock.withLock { () -> Bool in
            guard subscribers < Self.maximumSubscribers else { return false }
            subscribers += 1
            return true
        }
        guard admitted else {
            client.write(Self.encode(.failure("too many subscribers")))
            return
        }
        defer { lock.withLock { subscribers -= 1 } }
        let outbox = StatusOutbox()
        let end = subscribe { status in outbox.offer(status) }
        // The client ends a subscription by closing its end.
        connections?.startThread(named: "wd-control-watch") {
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

extension ControlServer: ApplianceService {
    public var threadNames: String { "wd-control" }
}
