import Foundation
import Logging
import Threads

/// The daemon's control socket: JSON lines over a Unix socket (no TCP), mode 0660.
///
/// One thread accepts (`wd-control`); each client gets a thread of its own and at most
/// ``maximumClients`` are served at once. Requests are size-limited and validated; a bad
/// one gets an error reply and never reaches the radio. A client that does not read its
/// replies is dropped after a send timeout.
public final class ControlServer: @unchecked Sendable {
    /// Answers a request (on the client's thread).
    public typealias Responder = (ControlRequest) -> ControlResponse
    /// Starts a subscription that sends each status through `send` until it returns false;
    /// returns a function that ends it.
    public typealias Subscriber = (_ send: @escaping (RadioStatus) -> Bool) -> () -> Void

    public static let maximumRequestLength = 16 * 1024
    public static let maximumClients = 32

    private let path: String
    private let respond: Responder
    private let subscribe: Subscriber
    private let logger: Logger
    private var listener: UnixSocket?
    private let lock = NSLock()
    private var clients: [ObjectIdentifier: UnixSocket] = [:]
    private var isStopping = false
    /// The accepting thread and every client's threads, so ``stop(waitingUpTo:)`` can wait for them.
    private let threads = DispatchGroup()

    public init(path: String, logger: Logger, respond: @escaping Responder, subscribe: @escaping Subscriber) {
        self.path = path
        self.logger = logger
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
            while let client = listener.accept() {
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
        lock.withLock {
            isStopping = true
            for client in clients.values { shutdown(client.descriptor, Int32(SHUT_RDWR)) }
        }
        let ended = threads.wait(timeout: .now() + timeout) == .success
        if ended { listener.close() }
        return ended
    }

    private func serve(_ client: UnixSocket) {
        let admitted = lock.withLock { () -> Bool? in
            // A client accepted as the server stops is not served (stop already disconnected the others).
            guard !isStopping else { return nil }
            guard clients.count < Self.maximumClients else { return false }
            clients[ObjectIdentifier(client)] = client
            return true
        }
        guard let admitted else { return }
        guard admitted else {
            client.setSendTimeout(seconds: 1)
            client.write(Self.encode(.failure("too many clients")))
            return
        }
        client.setSendTimeout(seconds: 2)
        threads.enter()
        NamedThread.start(name: "wd-control-client") { [self] in
            defer {
                _ = lock.withLock { clients.removeValue(forKey: ObjectIdentifier(client)) }
                threads.leave()
            }
            converse(with: client)
        }
    }

    private func converse(with client: UnixSocket) {
        var reader = LineReader(maximumLength: Self.maximumRequestLength)
        while true {
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
                        continue
                    }
                    guard ControlRequest.commands.contains(request.command) else {
                        guard client.write(Self.encode(.failure("unknown command '\(request.command)'"))) else { return }
                        continue
                    }
                    if request.command == "subscribe" {
                        streamStatus(to: client)
                        return
                    }
                    guard client.write(Self.encode(respond(request))) else { return }
                }
            }
        }
    }

    /// Sends a status line per change until the client leaves or stops reading.
    private func streamStatus(to client: UnixSocket) {
        let done = DispatchSemaphore(value: 0)
        let gone = ManagedFlag()
        let end = subscribe { status in
            guard !gone.isSet else { return false }
            if client.write(Self.encode(ControlResponse(ok: true, status: status))) { return true }
            gone.set()
            done.signal()
            return false
        }
        // The client ends a subscription by closing its end.
        threads.enter()
        NamedThread.start(name: "wd-control-watch") { [threads] in
            defer { threads.leave() }
            while !client.read().isEmpty {}
            gone.set()
            done.signal()
        }
        done.wait()
        end()
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
