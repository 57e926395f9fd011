import CurlSupport
import Foundation
import WavedialControl
import WavedialCore
import XCTest

@testable import Supervisor

/// The web API's routes over a backend that records what reaches the radio: reading needs nothing,
/// a change is a same-origin JSON POST (with the password when one is set), every error is JSON with
/// its status, and hostile names reach the page only escaped.
final class WebRoutesTests: XCTestCase {
    private static let hostileName = #"<script>alert("x")</script> & 'Ünïcödé'"#
    private let performed = Box<[ControlCommand]>([])
    private var clock = Box<Double>(1000)
    /// The delays wrong passwords were answered after.
    private let waits = Box<[Double]>([])

    private func status() -> RadioStatus {
        let json = """
            {"state":"playing","station":{"stationuuid":"u-1","name":\(Self.quoted(Self.hostileName)),"frequency_mhz":94.1},
             "title":"<b>Title</b>","volume":40,"muted":false,"favorite":true,"band":"nearby","needle_mhz":94.1,
             "sleep_remaining_s":null,"next_alarm":null}
            """
        return try! JSONDecoder().decode(RadioStatus.self, from: Data(json.utf8))
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode([text]), as: UTF8.self).dropFirst().dropLast().description
    }

    private func routes(password: String = "") -> WebRoutes {
        let performed = performed
        let status = status()
        let listing = DialListing(
            band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 94.1,
            dial: [DialListing.Entry(stationuuid: "u-1", name: Self.hostileName, frequencyMHz: 94.1, favoriteNumber: 1)],
            favorites: [DialListing.Entry(stationuuid: "u-1", name: Self.hostileName, frequencyMHz: 94.1, favoriteNumber: 1)])
        let backend = WebBackend(
            perform: { command in
                performed.update { $0.append(command) }
                switch command {
                case .lcd: return ControlResponse(ok: true, lines: ["94.1 <FM>", "Title"])
                case .back: return .failure("nothing to go back to")
                default: return ControlResponse(ok: true, status: status)
                }
            },
            dialListing: { listing },
            search: { query in
                [Station(stationuuid: "s-\(query.limit)", name: "Found \(query.text)", url: "http://example.invalid/")]
            })
        let clock = clock
        let waits = waits
        let attempts = PasswordAttempts(now: { clock.value }, wait: { seconds in waits.update { $0.append(seconds) } })
        return WebRoutes(backend: backend, authentication: WebAuthentication(password: password, attempts: attempts, now: { clock.value }))
    }

    private func request(_ method: String, _ target: String, body: String = "", headers: [(String, String)] = []) -> HttpRequest {
        var all: [(name: String, value: String)] = [("host", "127.0.0.1:8080")]
        if method == "POST" { all.append(("content-type", "application/json")) }
        for (name, value) in headers {
            all.removeAll { $0.name == name }
            all.append((name, value))
        }
        var parser = HttpRequestParser()
        let head = "\(method) \(target) HTTP/1.1\r\n" + all.map { "\($0.name): \($0.value)\r\n" }.joined()
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        parser.feed(Array(head.utf8))
        return try! parser.next()!.get()
    }

    private func json(_ response: HttpResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    func testStatusIsTheControlSocketsStatusObject() throws {
        let response = routes().respond(to: request("GET", "/api/status"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(try JSONDecoder().decode(RadioStatus.self, from: response.body), status())
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"band":"nearby","favorite":true,"#), "sorted keys, as status --json")
    }

    func testActionsReachTheRadioAsControlRequests() {
        let routes = routes()
        XCTAssertEqual(routes.respond(to: request("POST", "/api/play")).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/volume", body: #"{"value":35}"#)).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/tune", body: #"{"value":"94.1"}"#)).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/sleep", body: #"{"value":"30m"}"#)).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/alarms", body: #"{"time":"07:00","days":"mon-fri","stationuuid":"u-1"}"#)).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/alarms/disable", body: #"{"id":3}"#)).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/alarms/remove", body: #"{"id":"3"}"#)).status, 200)
        XCTAssertEqual(performed.value, [
            .play, .volume(35),
            .tune("94.1"), .sleep(seconds: 1800),
            .alarmAdd(AlarmRequest(time: "07:00", days: "mon-fri", stationuuid: "u-1")),
            .alarmDisable(id: 3), .alarmRemove(id: 3),
        ])
    }

    func testRefusalsAreJSONWithTheirStatus() {
        let routes = routes()
        let cases: [(HttpRequest, Int)] = [
            (request("GET", "/nowhere"), 404),
            (request("GET", "/api/play"), 405),
            (request("POST", "/api/status"), 405),
            (request("DELETE", "/api/alarms"), 405),
            (request("POST", "/api/back"), 409),
            (request("POST", "/api/volume", body: #"{"value":400}"#), 400),
            (request("POST", "/api/volume", body: #"{"value":1e999}"#), 400),
            (request("POST", "/api/volume"), 400),
            (request("POST", "/api/volume", body: "[1]"), 400),
            (request("POST", "/api/volume", body: String(repeating: "[", count: 16_000)), 400),
            (request("POST", "/api/volume", body: #"{"value":{"value":[1,2]}}"#), 400),
            (request("POST", "/api/alarms/enable", body: "{}"), 400),
            (request("GET", "/api/search"), 400),
            (request("GET", "/api/search?q=" + String(repeating: "a", count: 201)), 400),
            (request("POST", "/api/play", headers: [("content-type", "text/plain")]), 415),
            (request("POST", "/api/play", headers: [("origin", "http://evil.example")]), 403),
            (request("POST", "/api/play", headers: [("sec-fetch-site", "cross-site")]), 403),
            (request("GET", "/api/status", headers: [("host", "evil.example.com")]), 421),
        ]
        for (request, expected) in cases {
            let response = routes.respond(to: request)
            XCTAssertEqual(response.status, expected, "\(request.method) \(request.path)")
            XCTAssertEqual(json(response)["ok"] as? Bool, false, "\(request.method) \(request.path)")
            XCTAssertNotNil(json(response)["error"] as? String)
        }
        XCTAssertEqual(routes.respond(to: request("PUT", "/api/play")).headers["Allow"], "POST")
        XCTAssertFalse(performed.value.contains { $0 == .play || $0.name == "alarm_enable" }, "nothing refused reached the radio")
    }

    func testThePasswordGuardsChangesNotReading() throws {
        let routes = routes(password: "sesame")
        XCTAssertEqual(routes.respond(to: request("GET", "/api/status")).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/play")).status, 401)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/play", headers: [("authorization", "Bearer wrong")])).status, 401)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/play", headers: [("authorization", "Bearer sesame")])).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/login", body: #"{"password":"nope"}"#)).status, 401)
        let login = routes.respond(to: request("POST", "/api/login", body: #"{"password":"sesame"}"#))
        XCTAssertEqual(login.status, 200)
        let cookie = try XCTUnwrap(login.headers["Set-Cookie"])
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        let session = String(cookie.prefix { $0 != ";" })
        XCTAssertEqual(routes.respond(to: request("POST", "/api/pause", headers: [("cookie", "a=b; " + session)])).status, 200)
        XCTAssertEqual(routes.respond(to: request("POST", "/api/pause", headers: [("cookie", "wavedial_session=" + String(repeating: "0", count: 64))])).status, 401)
        _ = routes.respond(to: request("POST", "/api/logout", headers: [("cookie", session)]))
        XCTAssertEqual(routes.respond(to: request("POST", "/api/pause", headers: [("cookie", session)])).status, 401)
        XCTAssertEqual(performed.value.filter { $0 == .play || $0 == .pause }.count, 2)
    }

    func testWrongPasswordsAreLimited() {
        let routes = routes(password: "sesame")
        for _ in 0..<PasswordAttempts.allowedFailures {
            XCTAssertEqual(routes.respond(to: request("POST", "/api/login", body: #"{"password":"guess"}"#)).status, 401)
        }
        XCTAssertEqual(routes.respond(to: request("POST", "/api/login", body: #"{"password":"sesame"}"#)).status, 429)
        clock.update { $0 += PasswordAttempts.forgetAfter + 1 }
        XCTAssertEqual(routes.respond(to: request("POST", "/api/login", body: #"{"password":"sesame"}"#)).status, 200)
    }

    /// A Bearer password counts as a login's: each wrong one slow, the address locked out after a few
    /// (the right password too is then refused unjudged), while another address logs in.
    func testBearerGuessesCountPerAddressAndAnotherAddressStillLogsIn() throws {
        let routes = routes(password: "sesame")
        func pause(from peer: String, bearer: String) -> HttpResponse {
            var request = request("POST", "/api/pause", headers: [("authorization", "Bearer " + bearer)])
            request.peer = IPAddress(peer)
            return routes.respond(to: request)
        }
        for guess in 0..<PasswordAttempts.allowedFailures {
            XCTAssertEqual(pause(from: "127.0.0.1", bearer: "guess\(guess)").status, 401)
        }
        XCTAssertEqual(waits.value, Array(repeating: PasswordAttempts.wrongAnswerDelay, count: PasswordAttempts.allowedFailures))
        let locked = pause(from: "127.0.0.1", bearer: "sesame")
        XCTAssertEqual(locked.status, 429)
        XCTAssertEqual(locked.headers["Retry-After"], "1")
        var login = request("POST", "/api/login", body: #"{"password":"sesame"}"#)
        login.peer = IPAddress("127.0.0.1")
        XCTAssertEqual(routes.respond(to: login).status, 429, "the login too: one count per address")
        login.peer = IPAddress("127.0.0.2")
        XCTAssertEqual(routes.respond(to: login).status, 200, "another address is not locked out")
        XCTAssertEqual(pause(from: "127.0.0.2", bearer: "sesame").status, 200)
        // Each failure past the allowed doubles the lockout.
        clock.update { $0 += 1 }
        XCTAssertEqual(pause(from: "127.0.0.1", bearer: "wrong").status, 401)
        clock.update { $0 += 1.5 }
        XCTAssertEqual(pause(from: "127.0.0.1", bearer: "sesame").headers["Retry-After"], "1")
        clock.update { $0 += 0.5 }
        XCTAssertEqual(pause(from: "127.0.0.1", bearer: "sesame").status, 200)
        XCTAssertEqual(performed.value.filter { $0 == .pause }.count, 2)
    }

    func testSearchDialAndFavorites() throws {
        let routes = routes()
        let search = routes.respond(to: request("GET", "/api/search?q=jazz%20caf%C3%A9"))
        XCTAssertEqual(search.status, 200)
        let stations = try XCTUnwrap(try JSONSerialization.jsonObject(with: search.body) as? [[String: Any]])
        XCTAssertEqual(stations.first?["name"] as? String, "Found jazz café")
        let dial = json(routes.respond(to: request("GET", "/api/dial")))
        XCTAssertEqual(dial["start_mhz"] as? Double, 87.5)
        XCTAssertEqual((dial["dial"] as? [[String: Any]])?.first?["frequency_mhz"] as? Double, 94.1)
        let favorites = json(routes.respond(to: request("GET", "/api/favorites")))
        XCTAssertEqual((favorites["favorites"] as? [[String: Any]])?.first?["favorite_number"] as? Int, 1)
    }

    func testThePageEscapesWhatStationsSend() throws {
        let response = routes().respond(to: request("GET", "/"))
        XCTAssertEqual(response.status, 200)
        let html = String(decoding: response.body, as: UTF8.self)
        XCTAssertFalse(html.contains("<script>alert"), "a station's name is never markup")
        XCTAssertFalse(html.contains("<b>Title</b>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Ünïcödé&#39;"))
        XCTAssertTrue(html.contains("94.1 &lt;FM&gt;"), "the LCD's rows")
        XCTAssertTrue(html.contains(#"name="viewport""#))
        let policy = try XCTUnwrap(response.headers["Content-Security-Policy"])
        let nonce = try XCTUnwrap(policy.split(separator: "'").first { $0.hasPrefix("nonce-") }).dropFirst("nonce-".count)
        XCTAssertTrue(html.contains(#"<script nonce="\#(nonce)">"#))
        XCTAssertEqual(html.components(separatedBy: "<script").count, 2, "one script, the page's own")
        let head = routes().respond(to: request("HEAD", "/"))
        XCTAssertEqual(head.status, 200)
    }

    /// Browsers ask for it whatever the page says: an answer, not a 404 in the console, and cached.
    func testTheIconIsServedWithItsTypeAndCacheable() throws {
        let icon = routes().respond(to: request("GET", "/favicon.ico"))
        XCTAssertEqual(icon.status, 200)
        XCTAssertEqual(icon.headers["Content-Type"], "image/svg+xml")
        XCTAssertEqual(icon.headers["Cache-Control"], "public, max-age=604800")
        let svg = String(decoding: icon.body, as: UTF8.self)
        XCTAssertTrue(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg""#) && svg.hasSuffix("</svg>"), svg)
        XCTAssertEqual(routes().respond(to: request("HEAD", "/favicon.ico")).status, 200)
        XCTAssertTrue(String(decoding: routes().respond(to: request("GET", "/")).body, as: UTF8.self)
            .contains(#"<link rel="icon" href="/favicon.ico" type="image/svg+xml">"#))
    }

    func testHomeHostNames() {
        for host in ["127.0.0.1", "127.0.0.1:8080", "[::1]:8080", "[fe80::1]", "localhost:80", "wavedial", "radio.local", "Radio.LAN:8080",
                     "kitchen.home.arpa"] {
            XCTAssertTrue(WebRoutes.isHomeHost(host), host)
        }
        for host in ["", "evil.com", "127.0.0.1.nip.io", "radio.local.evil.com", "[::1", "a:b:c", "radio.local:", "x:99999999", "a b"] {
            XCTAssertFalse(WebRoutes.isHomeHost(host), host)
        }
    }
}
