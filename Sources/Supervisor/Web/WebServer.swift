import Foundation
import Logging
import WavedialConfig
import WavedialControl

/// The daemon's web page and JSON API over HTTP/1.1 (`[web]`): a ``ConnectionServer`` on a TCP port
/// (`wd-web`, one `wd-web-client` thread per client, at most ``maximumClients``, at most
/// ``maximumClientsPerAddress`` of one address: one more is closed on accept), clients outside the
/// allow list closed on accept, requests read by ``HttpRequestParser`` (bounded) and answered by
/// ``WebRoutes``. Keep-alive unless the client says `Connection: close`.
///
/// Slow clients are cut off: a request must arrive whole within ``requestTimeout`` seconds of its first
/// byte (or of the connection), a kept-alive connection idle for ``idleTimeout`` seconds is closed, and a
/// client that does not read its answers is dropped after ``sendTimeoutSeconds``.
public final class WebServer: @unchecked Sendable {
    public static let maximumClients = 16
    public static let maximumClientsPerAddress = 6
    public static let requestTimeout: Double = 10
    public static let idleTimeout: Double = 15
    public static let sendTimeoutSeconds = 5

    private let host: String
    private let port: Int
    private let routes: WebRoutes
    private let allowList: ClientAllowList
    private let perAddress = ConnectionsPerAddress(limit: WebServer.maximumClientsPerAddress)
    private let logger: Logger
    private let requestTimeout: Double
    /// systemd's `wavediald-web.socket`, taken over at start instead of listening anew.
    private var inherited: StreamSocket?
    private var connections: ConnectionServer?

    /// - Parameters:
    ///   - inherited: a listening socket to accept on (systemd's) instead of listening on `host`:`port`.
    ///   - requestTimeout: seconds a request may take to arrive (``requestTimeout``; tests shorten it).
    public init(host: String, port: Int, inherited: StreamSocket? = nil, routes: WebRoutes, allowList: ClientAllowList,
                logger: Logger, requestTimeout: Double = WebServer.requestTimeout) {
        self.host = host
        self.inherited = inherited
        self.port = port
        self.routes = routes
        self.allowList = allowList
        self.logger = logger
        self.requestTimeout = requestTimeout
    }

    /// The port it listens on (the configured one, or the one the system chose for port 0).
    public private(set) var localPort: Int?

    /// The server `settings` describe (`[web]`), on `inherited` (systemd's `wavediald-web.socket`) when
    /// given, with the settings screen and captive portal of `setup`; nil when it is disabled.
    public convenience init?(_ settings: ListenerSettings, inherited: StreamSocket? = nil, backend: WebBackend, setup: WebSetup? = nil,
                             attempts: PasswordAttempts = PasswordAttempts(), logger: Logger) {
        guard settings.isEnabled else { return nil }
        self.init(host: settings.bind, port: settings.port, inherited: inherited,
                  routes: WebRoutes(backend: backend, authentication: WebAuthentication(password: settings.password, attempts: attempts),
                                    setup: setup),
                  allowList: ClientAllowList(settings.allow), logger: logger)
    }

    /// Starts accepting on the inherited socket, else listens on its address and port. - Throws: ``StreamSocket/Failure``.
    public func start() throws {
        let listener = try inherited ?? StreamSocket.listen(host: host, port: port)
        inherited = nil
        localPort = listener.localPort
        let connections = ConnectionServer(
            name: "wd-web", maximumClients: Self.maximumClients, sendTimeoutSeconds: Self.sendTimeoutSeconds,
            admits: { [allowList, perAddress, logger] client in
                guard allowList.admits(client.peer) else {
                    logger.notice("web client refused: not in [web] allow", metadata: ["web.client": "\(client.peer?.description ?? "?")"])
                    return false
                }
                guard perAddress.take(client.peer) else {
                    logger.notice("web client refused: too many connections from its address",
                                  metadata: ["web.client": "\(client.peer?.description ?? "?")"])
                    return false
                }
                return true
            },
            converse: { [unowned self, perAddress] client in
                defer { perAddress.release(client.peer) }
                converse(with: client)
            })
        connections.start(listening: listener)
        self.connections = connections
        logger.info("web page listening", metadata: ["web.address": "\(host)", "web.port": "\(localPort ?? port)"])
    }

    /// Stops accepting, disconnects every client and waits up to `timeout` seconds for the threads.
    /// - Returns: whether every thread ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 3) -> Bool {
        guard let connections else { return true }
        self.connections = nil
        return connections.stop(waitingUpTo: timeout)
    }

    private func converse(with client: StreamSocket) {
        var parser = HttpRequestParser()
        var deadline = DispatchTime.now() + requestTimeout
        while true {
            // Answer every whole request already read (pipelining) before reading more.
            while let next = parser.next() {
                switch next {
                case .failure(let failure):
                    client.write(HttpResponse.failure(failure.status, failure.message).serialized(keepAlive: false))
                    return
                case .success(var request):
                    request.peer = client.peer
                    let response = routes.respond(to: request)
                    let keepAlive = request.keepsAlive
                    guard client.write(response.serialized(keepAlive: keepAlive, includingBody: request.method != "HEAD")), keepAlive else { return }
                    deadline = DispatchTime.now() + (parser.hasPartialRequest ? requestTimeout : Self.idleTimeout)
                }
            }
            guard client.waitUntilReadable(before: deadline) else {
                if parser.hasPartialRequest {
                    client.write(HttpResponse.failure(408, "the request did not arrive in \(Int(requestTimeout)) s").serialized(keepAlive: false))
                }
                return
            }
            let bytes = client.read()
            guard !bytes.isEmpty else { return }
            // The first byte of a request starts its clock.
            if !parser.hasPartialRequest { deadline = min(deadline, DispatchTime.now() + requestTimeout) }
            parser.feed(bytes)
        }
    }
}

/// Not essential: a page that cannot listen (its port taken) is left out, and the radio plays on.
extension WebServer: ApplianceService {
    public var threadNames: String { "wd-web" }
    public var isEssential: Bool { false }
}
