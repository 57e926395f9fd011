import Foundation
import Supervisor
import WavedialControl
import WavedialTestSupport
import XCTest

/// The web page end to end: the headless daemon with `[web] enabled` on a loopback port, driven over
/// HTTP (the JSON API: `status` is `wavedial status --json`'s object, actions change what the CLI sees,
/// refusals change nothing) and by a real headless Chromium that loads the page and presses its buttons
/// (Tests/Fixtures/web/browser.py over the DevTools protocol; `chromium` from scripts/packages/test-web.txt).
final class DaemonWebTests: XCTestCase {
    private static let first = "00000000-0000-4000-8000-0000000000d1"
    private static let second = "00000000-0000-4000-8000-0000000000d2"
    /// A name a page must show as text: markup in it would run in the browser.
    private static let hostileName = #"Jazz <img src=x onerror="document.title='owned'"> & Co"#
    private var server: MisbehavingServer?
    private var radio: RadioUnderTest?
    private let port = freeLoopbackPort()

    override func setUpWithError() throws {
        let server = try MisbehavingServer()
        self.server = server
        radio = try RadioUnderTest(stations: [.init(uuid: Self.first, name: Self.hostileName, url: server.url("/ok.mp3")),
                                              .init(uuid: Self.second, name: "Morning FM", url: server.url("/ok.mp3"))]) { [port] config in
            config.extra += "\n[web]\nenabled = true\nport = \(port)\n"
        }
    }

    override func tearDown() {
        radio?.stop()
        server?.stop()
    }

    /// One HTTP exchange on a fresh connection; the answer's status, fields (lower-case) and body.
    private func http(_ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:])
        throws -> (status: Int, headers: [String: String], body: Data) {
        let socket = try StreamSocket.connect(host: "127.0.0.1", port: port)
        var fields = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { _, new in new }
        if let body {
            fields["Content-Length"] = String(body.utf8.count)
            if fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        }
        let head = "\(method) \(target) HTTP/1.1\r\n" + fields.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        XCTAssertTrue(socket.write(Data((head + (body ?? "")).utf8)))
        var received: [UInt8] = []
        while socket.waitUntilReadable(before: .now() + 10) {
            let bytes = socket.read()
            if bytes.isEmpty { break }
            received += bytes
        }
        return try Self.parseResponse(received)
    }

    private static func parseResponse(_ bytes: [UInt8]) throws -> (status: Int, headers: [String: String], body: Data) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw FixtureError("no HTTP answer: \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (status, headers, Data(text[split.upperBound...].utf8))
    }

    private func json(_ body: Data) -> Any? { try? JSONSerialization.jsonObject(with: body) }

    private func start() throws -> RadioUnderTest {
        let radio = try XCTUnwrap(radio)
        try radio.startDaemon()
        radio.tune(Self.first)
        // Buffering too: on a machine this busy the test stream may run dry now and then.
        radio.waitFor("playing") { ["playing", "buffering"].contains(radio.status()["state"] as? String ?? "") }
        return radio
    }

    func testTheJSONAPIIsTheControlSocketsOverHTTP() throws {
        let radio = try start()
        radio.waitFor("a title") { radio.status()["title"] != nil }
        // The test station's titles change every second or so, and its state may flicker to buffering:
        // the two must be the same, field for field, apart from the title, at one of a few tries.
        var viaHTTP: [String: Any] = [:], viaCLI: [String: Any] = [:]
        for _ in 0..<10 {
            let api = try http("GET", "/api/status")
            XCTAssertEqual(api.status, 200)
            XCTAssertEqual(api.headers["content-type"], "application/json; charset=utf-8")
            viaHTTP = try XCTUnwrap(json(api.body) as? [String: Any])
            viaCLI = radio.status()
            XCTAssertTrue((viaHTTP.removeValue(forKey: "title") as? String)?.hasPrefix("Fixture - Song") == true)
            XCTAssertNotNil(viaCLI.removeValue(forKey: "title"))
            if viaHTTP as NSDictionary == viaCLI as NSDictionary { break }
        }
        XCTAssertEqual(viaHTTP as NSDictionary, viaCLI as NSDictionary, "status --json's object")

        let volume = try http("POST", "/api/volume", body: #"{"value":23}"#)
        XCTAssertEqual(volume.status, 200, String(decoding: volume.body, as: UTF8.self))
        XCTAssertEqual((json(volume.body) as? [String: Any])?["ok"] as? Bool, true)
        XCTAssertEqual(radio.status()["volume"] as? Int, 23)

        // Refused: a form a page elsewhere could post, a bad value, an unknown page: nothing changes.
        let form = try http("POST", "/api/volume", body: "value=80", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        XCTAssertEqual(form.status, 415)
        let bad = try http("POST", "/api/volume", body: #"{"value":"loud"}"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(((json(bad.body) as? [String: Any])?["error"] as? String ?? "").contains("volume must be"))
        XCTAssertEqual(try http("GET", "/api/nothing").status, 404)
        XCTAssertEqual(try http("GET", "/api/play").status, 405)
        XCTAssertEqual(radio.status()["volume"] as? Int, 23)

        let tune = try http("POST", "/api/tune", body: #"{"value":"\#(Self.second)"}"#)
        XCTAssertEqual(tune.status, 200)
        radio.waitFor("the second station") { (radio.status()["station"] as? [String: Any])?["stationuuid"] as? String == Self.second }

        let search = try http("GET", "/api/search?q=morning")
        let found = json(search.body) as? [[String: Any]]
        XCTAssertEqual(found?.map { $0["stationuuid"] as? String }, [Self.second])

        let dial = try XCTUnwrap(json(try http("GET", "/api/dial").body) as? [String: Any])
        XCTAssertEqual(Set(((dial["dial"] as? [[String: Any]]) ?? []).compactMap { $0["stationuuid"] as? String }), [Self.first, Self.second])

        for station in ["not-a-uuid-<b>", "../../x"] {
            let refused = try http("POST", "/api/alarms", body: #"{"time":"06:30","stationuuid":"\#(station)"}"#)
            XCTAssertEqual(refused.status, 404, String(decoding: refused.body, as: UTF8.self))
            XCTAssertEqual((json(refused.body) as? [String: Any])?["error_kind"] as? String, "not_found")
            var socket = ControlClient(path: radio.socketPath)
            socket.timeoutSeconds = 10
            let answer = try socket.send(.alarmAdd(AlarmRequest(time: "06:30", stationuuid: station)))
            XCTAssertFalse(answer.ok)
            XCTAssertEqual(answer.errorKind, .notFound, answer.error ?? "")
        }
        XCTAssertEqual((try radio.cli.run("alarm", "list", "--json").json() as? [[String: Any]])?.count, 0, "nothing was stored")
        let unknown = try radio.cli.run("alarm", "add", "06:30", "--station", "not-a-uuid-qq")
        XCTAssertEqual(unknown.status, 66, unknown.stderr)

        let alarm = try http("POST", "/api/alarms", body: #"{"time":"06:30","days":"mon-fri","stationuuid":"\#(Self.second)"}"#)
        XCTAssertEqual(alarm.status, 200, String(decoding: alarm.body, as: UTF8.self))
        let listed = try XCTUnwrap(try radio.cli.run("alarm", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(listed.first?["time"] as? String, "06:30")

        let sleep = try http("POST", "/api/sleep", body: #"{"value":"30m"}"#)
        XCTAssertEqual(sleep.status, 200)
        XCTAssertNotNil(radio.status()["sleep_remaining_s"] as? Int)

        // The icon browsers ask for: no 404 in the page's console.
        let icon = try http("GET", "/favicon.ico")
        XCTAssertEqual(icon.status, 200)
        XCTAssertEqual(icon.headers["content-type"], "image/svg+xml")
        XCTAssertTrue(icon.headers["cache-control"]?.hasPrefix("public, max-age=") == true, "\(icon.headers)")

        // The page: the LCD's text, the station's name as text only.
        let page = try http("GET", "/")
        XCTAssertEqual(page.status, 200)
        let html = String(decoding: page.body, as: UTF8.self)
        XCTAssertTrue(html.contains("Morning FM"))
        XCTAssertFalse(html.contains("<img src=x"), "a station's name is never markup")
        XCTAssertNotNil(page.headers["content-security-policy"])
    }

    func testSlowAndOversizedClientsAreCutOff() throws {
        try XCTUnwrap(radio).startDaemon()
        let huge = try http("POST", "/api/volume", body: String(repeating: " ", count: 20_000))
        XCTAssertEqual(huge.status, 413)
        let socket = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(socket.write(Data("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)))
        // The head never ends: the server answers 408 and closes (within the request timeout, 10 s).
        var received: [UInt8] = []
        while socket.waitUntilReadable(before: .now() + 20) {
            let bytes = socket.read()
            if bytes.isEmpty { break }
            received += bytes
        }
        XCTAssertEqual(try Self.parseResponse(received).status, 408)
        XCTAssertEqual(try http("GET", "/api/status").status, 200, "and the others are still served")
    }

    /// Replaces `[web]`'s extra keys in the radio's config file (before the daemon starts).
    private func configureWeb(_ lines: String) throws {
        let radio = try XCTUnwrap(radio)
        let text = try String(contentsOfFile: radio.configPath, encoding: .utf8)
        try text.replacingOccurrences(of: "[web]\nenabled = true\n", with: "[web]\nenabled = true\n\(lines)\n")
            .write(toFile: radio.configPath, atomically: true, encoding: .utf8)
    }

    func testOpenToTheNetworkWithoutAPasswordTheDaemonRefusesToStartAndDoctorSaysWhy() throws {
        let radio = try XCTUnwrap(radio)
        try configureWeb(#"bind = "0.0.0.0""#)
        let daemon = try DaemonProcess(configPath: radio.configPath, socketPath: radio.socketPath, logPath: radio.directory.path("refused.log"))
        let deadline = Date().addingTimeInterval(20)
        while daemon.process.isRunning && Date() < deadline { usleep(100_000) }
        XCTAssertFalse(daemon.process.isRunning, "the daemon refuses to start")
        if daemon.process.isRunning { _ = daemon.terminate() }
        XCTAssertNotEqual(daemon.process.terminationStatus, 0)
        XCTAssertTrue(daemon.log.contains("web.password"), daemon.log)
        let doctor = try radio.cli.run("doctor")
        XCTAssertNotEqual(doctor.status, 0)
        XCTAssertTrue((doctor.stdout + doctor.stderr).contains("'web.password' must be set when bind is \"0.0.0.0\", beyond loopback"),
                      doctor.stdout + doctor.stderr)
    }

    func testAClientOutsideTheAllowListIsClosedOnAccept() throws {
        try configureWeb(#"allow = ["10.0.0.0/8"]"#)
        try XCTUnwrap(radio).startDaemon()
        let socket = try StreamSocket.connect(host: "127.0.0.1", port: port)
        _ = socket.write(Data("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        XCTAssertTrue(socket.waitUntilReadable(before: .now() + 10))
        XCTAssertEqual(socket.read(), [], "closed without an answer")
    }

    func testWithAPasswordChangesNeedItReadingDoesNot() throws {
        try configureWeb(#"password = "open sesame""#)
        let radio = try start()
        XCTAssertEqual(try http("GET", "/api/status").status, 200)
        XCTAssertEqual(try http("POST", "/api/volume", body: #"{"value":11}"#).status, 401)
        XCTAssertEqual(try http("POST", "/api/volume", body: #"{"value":12}"#, headers: ["Authorization": "Bearer open sesame"]).status, 200)
        XCTAssertEqual(radio.status()["volume"] as? Int, 12)
        XCTAssertEqual(try http("POST", "/api/login", body: #"{"password":"sesame"}"#).status, 401)
        let login = try http("POST", "/api/login", body: #"{"password":"open sesame"}"#)
        XCTAssertEqual(login.status, 200)
        let cookie = try XCTUnwrap(login.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        XCTAssertEqual(try http("POST", "/api/volume", body: #"{"value":13}"#, headers: ["Cookie": cookie]).status, 200)
        XCTAssertEqual(radio.status()["volume"] as? Int, 13)
        // The page offers the login until then.
        XCTAssertTrue(String(decoding: try http("GET", "/").body, as: UTF8.self).contains(#"id="login""#))
        XCTAssertFalse(String(decoding: try http("GET", "/", headers: ["Cookie": cookie]).body, as: UTF8.self).contains(#"id="login""#))

        // A kept-alive client and one half-way through a request do not hold the daemon up at SIGTERM.
        let idle = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(idle.write(Data("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)))
        let partial = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(partial.write(Data("GET /api/status HTTP/1.1\r\n".utf8)))
        usleep(300_000)
        XCTAssertEqual(radio.daemon?.terminate(), 0, radio.daemon?.log.suffix(1500).description ?? "")
        XCTAssertFalse(radio.daemon?.log.contains("threads did not stop in time") ?? true)
    }

    /// A step that waits (up to 8 s) until `expression` has a value, and gives it (null if never).
    private static func until(_ expression: String) -> String {
        """
        new Promise(r => { const t = setInterval(() => { const v = \(expression); if (v) { clearInterval(t); r(v); } }, 100);
          setTimeout(() => r(null), 8000); })
        """
    }

    /// The browser driver's steps' values. - Throws: when the browser or a step failed.
    private func browse(width: Int = 360, height: Int = 780, screenshot: String? = nil, _ steps: [String]) throws -> [Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/web/browser.py").path
        var arguments = [script, "http://127.0.0.1:\(port)/", "--width", String(width), "--height", String(height)]
        if let screenshot { arguments += ["--screenshot", screenshot] }
        for step in steps { arguments += ["--step", step] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let result = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let values = result["steps"] as? [Any] else {
            throw FixtureError("browser.py failed (\(process.terminationStatus)): \(problems.suffix(2000))")
        }
        return values
    }

    func testAPhoneBrowserShowsNowPlayingAndItsButtonsWork() throws {
        let radio = try start()
        let lcd = radio.lcd()
        let shown = try browse([
            "document.getElementById('station').textContent",
            "document.getElementById('lcd').textContent",
            "document.title",
            "document.documentElement.scrollWidth <= window.innerWidth",
            "document.querySelectorAll('.tick').length",
            // Pause, then wait for the page's own poll to show it.
            "document.querySelector('[data-post=pause]').click(); true",
            """
            new Promise(r => { const t = setInterval(() => { if (document.getElementById('state').textContent.startsWith('paused'))
              { clearInterval(t); r(true); } }, 100); setTimeout(() => r(false), 8000); })
            """,
        ])
        XCTAssertEqual(shown[0] as? String, Self.hostileName, "the name as text")
        XCTAssertEqual((shown[1] as? String).map { $0.prefix(10) }, lcd.prefix(10), "the LCD's rows")
        XCTAssertEqual(shown[2] as? String, "Wavedial", "the name's markup did not run")
        XCTAssertEqual(shown[3] as? Bool, true, "nothing wider than a 360 px phone")
        XCTAssertEqual(shown[4] as? Int, 2, "both stations marked on the dial")
        XCTAssertEqual(shown[6] as? Bool, true, "the page shows the pause")
        XCTAssertEqual(radio.status()["state"] as? String, "paused", "the button paused the radio")

        // A favorite shows in the list at once; a search's result tunes when tapped.
        let tapped = try browse([
            "document.getElementById('favorite').click(); true",
            Self.until("document.querySelector('#favorites button')?.textContent"),
            "document.getElementById('query').value = 'morning'; document.getElementById('search').requestSubmit(); true",
            Self.until("document.querySelector('#results button')?.textContent"),
            "document.querySelector('#results button').click(); true",
        ])
        XCTAssertEqual(tapped[1] as? String, Self.hostileName)
        XCTAssertTrue((tapped[3] as? String)?.hasPrefix("Morning FM") == true, "\(tapped)")
        radio.waitFor("the search result tuned") { (radio.status()["station"] as? [String: Any])?["stationuuid"] as? String == Self.second }
        XCTAssertEqual(radio.status()["favorite"] as? Bool, false)

        let volume = try browse([
            "const v = document.getElementById('volume'); v.value = 61; v.dispatchEvent(new Event('change')); true",
            "new Promise(r => setTimeout(() => r(document.getElementById('message').textContent), 1500))",
        ])
        XCTAssertEqual(volume[1] as? String, "", "no error shown")
        radio.waitFor("volume 61 from the slider", timeout: 5) { radio.status()["volume"] as? Int == 61 }

        // Screenshots for docs/ (WAVEDIAL_WEB_SCREENSHOTS=folder), after the page has shown the station playing.
        if let folder = ProcessInfo.processInfo.environment["WAVEDIAL_WEB_SCREENSHOTS"] {
            // The search's station (tuned above) joins the favorites, beside the first one.
            XCTAssertEqual(try http("POST", "/api/favorite", body: "{}").status, 200)
            XCTAssertEqual(try http("POST", "/api/alarms", body: #"{"time":"06:45","days":"mon-fri"}"#).status, 200)
            XCTAssertEqual(try http("POST", "/api/sleep", body: #"{"value":"45m"}"#).status, 200)
            radio.waitFor("playing") { ["playing", "buffering"].contains(radio.status()["state"] as? String ?? "") }
            let wait = "new Promise(r => setTimeout(() => r(true), 2500))"
            _ = try browse(screenshot: folder + "/web-page-phone.png", [wait])
            _ = try browse(width: 1200, height: 900, screenshot: folder + "/web-page-desktop.png", [wait])
        }
    }
}
