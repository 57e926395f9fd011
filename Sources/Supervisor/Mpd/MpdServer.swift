import CurlSupport
import Foundation
import Logging
import WavedialConfig
import WavedialControl

/// The MPD protocol server (`[mpd]`): MPD's clients (`mpc`, ncmpcpp, Android apps, Home Assistant's
/// python-mpd2) control the radio over TCP as they would MPD 0.23.
///
/// A ``ConnectionServer`` accepts (`wd-mpd`) at most ``maximumClients`` at once, closes a client whose
/// address `allow` does not list as it connects, and serves each on a thread of its own: lines at most
/// ``maximumLineLength`` bytes (a longer one closes the connection, as MPD does), command lists at most
/// ``MpdSession/maximumCommandListLength`` commands and ``MpdSession/maximumCommandListBytes`` bytes, and a client that says nothing for the idle timeout
/// (60 s, MPD's `connection_timeout`) is closed, unless it waits in `idle`. Start after the controller,
/// stop before it.
public final class MpdServer: @unchecked Sendable {
    /// MPD's greeting: the protocol version its clients check features against.
    public static let greeting = "OK MPD 0.23.0\n"
    /// The longest request line (MPD's own input buffer).
    public static let maximumLineLength = 4096
    public static let maximumClients = 16
    /// Seconds a client may stay silent (not in `idle`) before it is closed: MPD's `connection_timeout`.
    public static let defaultIdleTimeout: Double = 60
    /// Seconds a write to a client may block before the client is dropped.
    public static let sendTimeoutSeconds = 5

    private let settings: ListenerSettings
    private let radio: MpdRadio
    private let attempts: PasswordAttempts
    private let logger: Logger
    private let idleTimeout: Double
    private let feed = MpdChangeFeed()
    private let startedAt = Date()
    private var inherited: StreamSocket?
    private var connections: ConnectionServer?
    private var endSubscription: (() -> Void)?
    /// The port listened on (the configured one; a test's port 0 becomes the kernel's choice).
    public private(set) var port: Int?

    /// - Parameters:
    ///   - inherited: a listening socket to accept on (systemd's `wavediald-mpd.socket`) instead of `bind`:`port`.
    ///   - idleTimeout: seconds a silent client is kept (``defaultIdleTimeout``; tests shorten it).
    ///   - attempts: judges the `password` commands (shared with the web page: guesses count whichever way they come).
    public init(settings: ListenerSettings, inherited: StreamSocket? = nil, radio: MpdRadio, logger: Logger,
                attempts: PasswordAttempts = PasswordAttempts(), idleTimeout: Double = MpdServer.defaultIdleTimeout) {
        self.settings = settings
        self.attempts = attempts
        self.inherited = inherited
        self.radio = radio
        self.logger = logger
        self.idleTimeout = idleTimeout
    }

    /// Starts accepting on the inherited socket, else listens on `bind`:`port`. - Throws: ``StreamSocket/Failure``.
    public func start() throws {
        let listener = try inherited ?? StreamSocket.listen(host: settings.bind, port: settings.port)
        inherited = nil
        port = listener.localPort
        let allowList = ClientAllowList(settings.allow)
        let connections = ConnectionServer(
            name: "wd-mpd", maximumClients: Self.maximumClients, sendTimeoutSeconds: Self.sendTimeoutSeconds,
            admits: { [logger] client in
                guard allowList.admits(client) else {
                    logger.info("MPD client refused: its address is not in [mpd] allow", metadata: ["client": "\(client.peer.map { "\($0)" } ?? "?")"])
                    return false
                }
                return true
            },
            converse: { [unowned self] client in converse(with: client) })
        endSubscription = radio.subscribe { [feed] status in feed.offer(status) }
        connections.start(listening: listener)
        self.connections = connections
        logger.info("MPD server listening", metadata: ["mpd.bind": "\(settings.bind)", "mpd.port": "\(port ?? settings.port)"])
    }

    /// Stops accepting, disconnects every client and waits up to `timeout` seconds for their threads.
    /// Call once, from the thread that started it. - Returns: whether every thread ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 3) -> Bool {
        endSubscription?()
        endSubscription = nil
        guard let connections else { return true }
        self.connections = nil
        return connections.stop(waitingUpTo: timeout)
    }

    private func converse(with client: StreamSocket) {
        let inbox: MpdChangeFeed.Inbox
        do {
            inbox = try MpdChangeFeed.Inbox()
        } catch {
            logger.warning("MPD client not served", metadata: ["error": "\(error)"])
            return
        }
        feed.register(inbox)
        defer { feed.unregister(inbox) }
        guard client.write(Data(Self.greeting.utf8)) else { return }
        let responder = MpdResponder(radio: radio, startedAt: startedAt, playlistVersion: { [feed] in feed.playlistVersion })
        var session = MpdSession(password: settings.password, stateChanging: MpdResponder.stateChanging, attempts: attempts, client: client.peer)
        var reader = LineReader(maximumLength: Self.maximumLineLength)
        var deadline = DispatchTime.now() + idleTimeout
        while true {
            let ready = Self.waitForEither(client.descriptor, inbox.wakeDescriptor, before: session.isIdle ? nil : deadline)
            if ready.isEmpty {
                logger.debug("MPD client closed: silent past the idle timeout")
                return
            }
            if ready.contains(inbox.wakeDescriptor), let answer = session.note(inbox.take()) {
                guard client.write(Data(answer.utf8)) else { return }
                deadline = DispatchTime.now() + idleTimeout
            }
            guard ready.contains(client.descriptor) else { continue }
            let bytes = client.read()
            guard !bytes.isEmpty else { return }
            for line in reader.feed(bytes) {
                guard case .line(let text) = line else {
                    client.write(Data(MpdError(.argument, "line longer than \(Self.maximumLineLength) bytes").line(command: "", index: 0).utf8))
                    return
                }
                let reply = session.receive(text) { command, authorized throws(MpdError) in
                    try responder.answer(command, authorized: authorized)
                }
                guard client.write(Data(reply.text.utf8)), !reply.closes else { return }
            }
            deadline = DispatchTime.now() + idleTimeout
        }
    }

    /// Waits until `first` or `second` is readable (or hung up), or `deadline` passes (nil: no deadline).
    /// - Returns: the descriptors that are ready; empty when the deadline passed.
    private static func waitForEither(_ first: Int32, _ second: Int32, before deadline: DispatchTime?) -> [Int32] {
        var entries = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let now = DispatchTime.now()
                guard now < deadline else { return [] }
                milliseconds = Int32(clamping: (deadline.uptimeNanoseconds - now.uptimeNanoseconds + 999_999) / 1_000_000)
            }
            let ready = poll(&entries, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return [first] }  // the read that follows reports it
            if ready > 0 { return entries.filter { $0.revents != 0 }.map(\.fd) }
        }
    }
}

/// Not essential: a server that cannot listen (its port taken) is left out, and the radio plays on.
extension MpdServer: ApplianceService {
    public var threadNames: String { "wd-mpd" }
    public var isEssential: Bool { false }
}
