import ApplianceSetup
import CurlSupport
import Foundation
import WavedialControl
import WavedialCore

/// Maps a request (path and method) to what answers it: the page at `/`, the JSON API under `/api/`.
///
/// Reading (`GET`, `HEAD`) needs nothing. A state change is a `POST` with a JSON body
/// (`Content-Type: application/json`, which a page elsewhere cannot send without asking first), not
/// from another origin (`Origin`, `Sec-Fetch-Site`), and, with a password set, from a logged-in
/// browser or with `Authorization: Bearer`. A `Host` that is not an address or a name of the home
/// network is refused (421), so a name rebound to the radio's address (DNS rebinding) reaches nothing.
/// Answers carry the control socket's shapes; errors are `{"ok":false,"error":…}` with their status.
///
/// With ``WebSetup``, the settings screen's routes too (`/api/settings`, `/api/wifi/networks`,
/// `/api/places`, in `WebRoutes+Setup.swift`), and while the setup access point is up, a captive portal for
/// the clients on it. Any thread; calls the backend on the caller's.
public struct WebRoutes: Sendable {
    /// Search words at most, in bytes, and stations a search lists.
    public static let maximumSearchLength = 200
    public static let searchLimit = 25

    let backend: WebBackend
    let authentication: WebAuthentication
    /// The settings screen's files; nil: the page has no settings screen.
    let setup: WebSetup?

    public init(backend: WebBackend, authentication: WebAuthentication, setup: WebSetup? = nil) {
        self.backend = backend
        self.authentication = authentication
        self.setup = setup
    }

    /// The commands a `POST /api/<name>` with no value carries out, as the control socket's.
    private static let simpleCommands: Set<String> = ["play", "pause", "back", "forward", "favorite", "band", "mute"]
    /// Paths answered by `GET`/`HEAD`.
    private static let readPaths: Set<String> = ["/", WebIcon.path, "/api/status", "/api/lcd", "/api/dial", "/api/favorites", "/api/search",
                                                 "/api/alarms"]
    /// Paths answered by `POST`.
    private static let writePaths: Set<String> = Set(simpleCommands.map { "/api/\($0)" }).union([
        "/api/volume", "/api/tune", "/api/sleep", "/api/alarms", "/api/alarms/remove", "/api/alarms/enable",
        "/api/alarms/disable", "/api/login", "/api/logout",
    ])

    /// The answer to `request`.
    public func respond(to request: HttpRequest) -> HttpResponse {
        let readable = Self.readPaths.contains(request.path) || (setup != nil && Self.setupReadPaths.contains(request.path))
        let writable = Self.writePaths.contains(request.path) || (setup != nil && request.path == Self.settingsPath)
        // Only the access point's clients: a phone's captive-portal check lands on the setup page.
        let portal = setup?.hotspot(reaching: request.peer)
        if let portal, let redirect = Self.portalRedirect(request, to: portal, isOwnPath: readable || writable) { return redirect }
        guard Self.isHomeHost(request.header("host")) else {
            return .failure(421, "this radio answers to its address or a name of the home network, not '\(Self.printable(request.header("host") ?? ""))'")
        }
        guard readable || writable else { return .failure(404, "no such page: \(Self.printable(request.path))") }
        switch request.method {
        case "GET" where readable, "HEAD" where readable:
            return read(request, portal: portal)
        case "POST" where writable:
            return write(request, portal: portal)
        default:
            var allowed: [String] = []
            if readable { allowed += ["GET", "HEAD"] }
            if writable { allowed.append("POST") }
            var response = HttpResponse.failure(405, "\(request.path) takes \(allowed.joined(separator: ", "))")
            response.headers["Allow"] = allowed.joined(separator: ", ")
            return response
        }
    }

    private func read(_ request: HttpRequest, portal: SetupHotspot?) -> HttpResponse {
        switch request.path {
        case "/":
            return page(request, portal: portal)
        case WebIcon.path:
            return WebIcon.response
        case "/api/status":
            guard let status = backend.perform(.status).status else {
                return .failure(503, "the radio gave no status")
            }
            return .json(status)
        case "/api/lcd":
            return answer(.lcd)
        case "/api/dial":
            return .json(WebDialListing(backend.dialListing()))
        case "/api/favorites":
            return .json(WebDialListing.Favorites(favorites: backend.dialListing().favorites.map(WebDialListing.Entry.init)))
        case "/api/alarms":
            return answer(.alarmList)
        case "/api/search":
            return search(request.parameter("q") ?? "")
        default:
            return readSetup(request, portal: portal)
        }
    }

    private func search(_ words: String) -> HttpResponse {
        let text = words.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .failure(400, "search needs words: /api/search?q=jazz") }
        guard text.utf8.count <= Self.maximumSearchLength else {
            return .failure(400, "search words longer than \(Self.maximumSearchLength) bytes")
        }
        do {
            return .json(try backend.search(StationQuery(text: text, limit: Self.searchLimit)))
        } catch {
            return .failure(500, "catalog error: \(error)")
        }
    }

    private func write(_ request: HttpRequest, portal: SetupHotspot?) -> HttpResponse {
        if let refusal = Self.crossSiteRefusal(request) { return refusal }
        if request.path == Self.settingsPath { return saveSettings(request, portal: portal) }
        let action: WebAction
        do {
            action = try WebAction.decode(request.body)
        } catch {
            return .failure(400, "the body must be a JSON object, e.g. {\"value\":\"40\"}")
        }
        let command = String(request.path.dropFirst("/api/".count))
        switch command {
        case "login":
            return login(action, from: request)
        case "logout":
            authentication.logout(request)
            var response = HttpResponse.json(ControlResponse(ok: true))
            response.headers["Set-Cookie"] = WebAuthentication.cookie("")
            return response
        default:
            break
        }
        if let refusal = Self.refusal(authentication.authorization(of: request)) { return refusal }
        switch command {
        case _ where Self.simpleCommands.contains(command):
            return answer(named: command)
        case "volume", "tune", "sleep":
            guard let value = action.value else { return .failure(400, "\(command) needs a value, e.g. {\"value\":\"\(Self.example(command))\"}") }
            return answer(named: command, value: value)
        case "alarms":
            guard let time = action.time else { return .failure(400, "an alarm needs a time, e.g. {\"time\":\"07:00\",\"days\":\"mon-fri\"}") }
            return answer(.alarmAdd(AlarmRequest(time: time, days: action.days, stationuuid: action.stationuuid)))
        default:
            // alarms/remove, alarms/enable, alarms/disable
            guard let id = action.id else { return .failure(400, "\(command) needs an alarm's id, e.g. {\"id\":1}") }
            let verb = command.split(separator: "/").last.map(String.init) ?? ""
            return answer(named: "alarm_" + verb, value: id)
        }
    }

    private func login(_ action: WebAction, from request: HttpRequest) -> HttpResponse {
        guard authentication.requiresPassword else { return .json(ControlResponse(ok: true)) }
        do {
            let token = try authentication.login(password: action.password ?? "", from: request.peer)
            var response = HttpResponse.json(ControlResponse(ok: true))
            response.headers["Set-Cookie"] = WebAuthentication.cookie(token)
            return response
        } catch .tooManyAttempts(let seconds) {
            return Self.tooManyWrongPasswords(retryAfterSeconds: seconds)
        } catch {
            return .failure(401, "wrong password")
        }
    }

    /// The answer to a change `authorization` does not allow; nil when it does.
    static func refusal(_ authorization: WebAuthentication.Authorization) -> HttpResponse? {
        switch authorization {
        case .allowed:
            return nil
        case .refused:
            var response = HttpResponse.failure(401, "this radio needs its password to change anything: log in, or send Authorization: Bearer <password>")
            response.headers["WWW-Authenticate"] = "Bearer realm=\"wavedial\""
            return response
        case .lockedOut(let seconds):
            return tooManyWrongPasswords(retryAfterSeconds: seconds)
        }
    }

    private static func tooManyWrongPasswords(retryAfterSeconds seconds: Int) -> HttpResponse {
        var response = HttpResponse.failure(429, "too many wrong passwords: try again in \(seconds) s")
        response.headers["Retry-After"] = String(seconds)
        return response
    }

    /// The controller's answer, with a status that says how it went: 200, else 409 for what the radio's
    /// state refuses (nothing to go back to, no station tuned), 404 for a station that does not exist, 400 for a bad value.
    private func answer(_ command: ControlCommand) -> HttpResponse {
        let response = backend.perform(command)
        guard !response.ok else { return .json(response) }
        if response.errorKind == .notFound { return .json(response, status: 404) }
        switch command {
        case .back, .forward, .favorite: return .json(response, status: 409)
        default: return .json(response, status: 400)
        }
    }

    /// The command the API's path and value name, checked as the control socket checks a request.
    private func answer(named name: String, value: String? = nil) -> HttpResponse {
        do {
            return answer(try ControlCommand(name: name, value: value))
        } catch {
            return .json(ControlResponse.failure(error.description), status: 400)
        }
    }

    private func page(_ request: HttpRequest, portal: SetupHotspot?) -> HttpResponse {
        let status = backend.perform(.status).status
        let lines = backend.perform(.lcd).lines ?? []
        let alarms = backend.perform(.alarmList).alarms ?? []
        let nonce = Self.nonce()
        let settings: WebPage.SettingsScreen? = setup == nil ? nil : portal != nil ? .first : .closed
        let html = WebPage(status: status, lcdLines: lines, dial: backend.dialListing(), alarms: alarms,
                           needsLogin: !authentication.authorizes(request), settings: settings).html(nonce: nonce)
        return HttpResponse(status: 200, headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; "
                + "connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ], body: Data(html.utf8))
    }

    /// Refuses a state change a page of another site could have sent.
    private static func crossSiteRefusal(_ request: HttpRequest) -> HttpResponse? {
        let type = (request.header("content-type") ?? "").split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            return .failure(415, "changes are sent as JSON: Content-Type: application/json")
        }
        if let site = request.header("sec-fetch-site")?.lowercased(), site == "cross-site" || site == "same-site" {
            return .failure(403, "changes are not taken from another site's page")
        }
        if let origin = request.header("origin"), origin != "http://" + (request.header("host") ?? "") {
            return .failure(403, "changes are not taken from another origin (\(printable(origin)))")
        }
        return nil
    }

    /// An address (`192.168.1.20:8080`, `[fe80::1]`), `localhost`, a name of one label (the radio's
    /// host name) or one under a home network's suffix (`.local`, `.lan`, `.home`, `.home.arpa`,
    /// `.internal`). Absent only in HTTP/1.0, where it is taken.
    static func isHomeHost(_ host: String?) -> Bool {
        guard let host else { return true }
        guard !host.isEmpty, host.utf8.count <= 255 else { return false }
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return false }
            return IPAddress(String(name.dropFirst().prefix(upTo: close))) != nil
        }
        if let colon = name.lastIndex(of: ":") {
            guard isPort(name[name.index(after: colon)...]) else { return false }
            name = name[..<colon]
        }
        let lower = name.lowercased()
        if IPAddress(lower) != nil || lower == "localhost" { return true }
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 && $0.utf8.allSatisfy(isHostNameCharacter) }) else { return false }
        if labels.count == 1 { return true }
        return [".local", ".lan", ".home", ".home.arpa", ".internal"].contains { lower.hasSuffix($0) }
    }

    private static func isPort(_ digits: Substring) -> Bool {
        !digits.isEmpty && digits.utf8.count <= 5 && digits.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    private static func isHostNameCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// Request text quoted in an error: printable ASCII, at most 80 characters.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(80).map { $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }))
    }

    private static func example(_ command: String) -> String {
        switch command {
        case "volume": return "40"
        case "tune": return "94.1"
        default: return "30m"
        }
    }

    /// A fresh value for the page's Content-Security-Policy, so only its own script and style run.
    private static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx%016llx", generator.next() as UInt64, generator.next() as UInt64)
    }
}
