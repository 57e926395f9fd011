import ApplianceSetup
import CurlSupport
import Foundation
import Logging
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The settings screen and the captive portal over real loopback HTTP: the current settings without secrets,
/// a valid form left in the inbox as a setup file that `setup apply` applies to the same values, an invalid one
/// refused by key with nothing written, the place search, the scan list, and while the access point is up,
/// redirects for its clients and no password for their settings (but for nobody else).
final class WebSettingsTests: XCTestCase {
    private var server: WebServer?
    private var directory: TemporaryDirectory!
    private var zoneInfo: ZoneInfoDirectory!
    private let joining = SetupJoining()
    private static let password = "web secret"
    private static let storedPSK = Array(repeating: UInt8(0xAB), count: 32)

    private var root: String { directory.path("root") }
    private var inbox: String { directory.path("run/inbox.toml") }
    private var scanFile: String { directory.path("run/wifi-scan.txt") }
    private var hotspotFile: String { directory.path("run/hotspot") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "web-settings")
        zoneInfo = ZoneInfoDirectory(path: try TZDataFixture.make(in: directory.url))
        try FileManager.default.createDirectory(atPath: directory.path("run"), withIntermediateDirectories: true)
        let wifi = WPASupplicantConfig(ssid: Array("HomeNet".utf8), psk: Self.storedPSK, country: "DE")
        try write(wifi.text, to: root + "/" + SetupPlan.Path.wifi)
        try write("kitchen\n", to: root + "/" + SetupPlan.Path.hostname)
        try write("Europe/Berlin\n", to: root + "/" + SetupPlan.Path.timezone)
    }

    override func tearDown() {
        server?.stop(waitingUpTo: 5)
        directory.remove()
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func start(setup: Bool = true) throws -> Int {
        let backend = WebBackend(perform: { _ in ControlResponse(ok: true) },
                                 dialListing: { DialListing(band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 90, dial: [], favorites: []) },
                                 search: { _ in [] })
        let webSetup = WebSetup(root: root, inboxFile: inbox, wifiScanFile: scanFile, hotspotFile: hotspotFile, zoneInfo: zoneInfo,
                                joining: joining, location: { Coordinate(latitude: 48.1, longitude: 11.6) })
        let attempts = PasswordAttempts(wait: { _ in })
        let server = WebServer(host: "127.0.0.1", port: 0,
                               routes: WebRoutes(backend: backend, authentication: WebAuthentication(password: Self.password, attempts: attempts),
                                                 setup: setup ? webSetup : nil),
                               allowList: ClientAllowList(IPNetwork.loopback), logger: Logger(label: "test.web"))
        try server.start()
        self.server = server
        return try XCTUnwrap(server.localPort)
    }

    private struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    /// One request on its own connection.
    private func send(_ method: String, _ target: String, port: Int, host: String? = nil, password: String? = nil,
                      body: String? = nil) throws -> Answer {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let password { text += "Authorization: Bearer \(password)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let answer = try loopbackHTTPExchange(text, port: port)
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let status = Int(answer.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
        return Answer(status: status, head: parts.first ?? "", body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private func writeHotspot(address: String) throws {
        try write("ssid = \"Wavedial-3F2A\"\npassword = \"k7p2m9qx\"\naddress = \"\(address)\"\n", to: hotspotFile)
    }

    // MARK: The settings screen

    func testSettingsShowWhatSetupApplyStoredAndNoSecret() throws {
        let port = try start()
        let answer = try send("GET", "/api/settings", port: port, password: Self.password)
        XCTAssertEqual(answer.status, 200, answer.body)
        let settings = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        XCTAssertEqual((settings?["wifi"] as? [String: Any])?["ssid"] as? String, "HomeNet")
        XCTAssertEqual((settings?["wifi"] as? [String: Any])?["country"] as? String, "DE")
        XCTAssertEqual((settings?["system"] as? [String: Any])?["hostname"] as? String, "kitchen")
        XCTAssertEqual((settings?["system"] as? [String: Any])?["timezone"] as? String, "Europe/Berlin")
        XCTAssertEqual((settings?["location"] as? [String: Any])?["latitude"] as? Double, 48.1)
        XCTAssertEqual((settings?["web"] as? [String: Any])?["password_set"] as? Bool, true)
        XCTAssertEqual(settings?["hotspot"] as? Bool, false)
        XCTAssertEqual(settings?["timezones"] as? [String], ["America/New_York", "America/Sao_Paulo", "Europe/Berlin", "Europe/London"])
        XCTAssertFalse(answer.body.lowercased().contains("abababab"), "never the PSK")
        XCTAssertFalse(answer.body.contains(Self.password))
        XCTAssertFalse(answer.body.contains("psk"))

        XCTAssertEqual(try send("GET", "/api/settings", port: port).status, 401, "like the page's writes")
        XCTAssertEqual(try send("GET", "/api/wifi/networks", port: port).status, 401)
        let page = try send("GET", "/", port: port)
        XCTAssertTrue(page.body.contains(#"<details id="settings-screen">"#), "the page has the screen, folded")
    }

    func testAValidFormIsLeftInTheInboxAndSetupApplyAppliesTheSameValues() throws {
        let port = try start()
        let form = """
            {"wifi": {"ssid": "Café \\"Net\\"", "password": "pass\\\\word 123", "country": "gb"},
             "system": {"hostname": "Lounge", "timezone": "America/New_York"}, "location": {"place": "Berlin"},
             "web": {"password": "new # secret"}}
            """
        let answer = try send("POST", "/api/settings", port: port, password: Self.password, body: form)
        XCTAssertEqual(answer.status, 202, answer.body)
        XCTAssertEqual(answer.body, #"{"accepted":true}"#)
        var info = stat()
        XCTAssertEqual(stat(inbox, &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o640)
        XCTAssertNil(joining.network, "no access point: nothing to walk through")

        // What root's `wavedial setup apply --file inbox.toml` runs, into another root.
        let applyRoot = directory.path("applied")
        let databasePath = directory.path("applied/data/wavedial/wavedial.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("applied/data/wavedial"), withIntermediateDirectories: true)
        let run = SetupRun(file: inbox, root: applyRoot, zoneInfo: zoneInfo, configuredLocation: nil) {
            try WavedialDatabase.open(path: databasePath)
        }
        let outcome = try run.perform()
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.applied, ["wifi", "hostname", "timezone", "location", "web_password"])
        let wifi = WPASupplicantConfig(text: try String(contentsOfFile: run.path(SetupPlan.Path.wifi), encoding: .utf8))
        XCTAssertEqual(wifi.ssid, Array("Café \"Net\"".utf8))
        XCTAssertEqual(wifi.psk, WPAPreSharedKey.derive(passphrase: "pass\\word 123", ssid: Array("Café \"Net\"".utf8)))
        XCTAssertEqual(wifi.country, "GB")
        XCTAssertEqual(try String(contentsOfFile: run.path(SetupPlan.Path.hostname), encoding: .utf8), "lounge\n")
        XCTAssertEqual(try String(contentsOfFile: run.path(SetupPlan.Path.timezone), encoding: .utf8), "America/New_York\n")
        let location = try WavedialDatabase.open(path: databasePath).storedLocation()
        XCTAssertEqual(location?.latitude ?? 0, 52.5, accuracy: 0.01)
        XCTAssertEqual(location?.longitude ?? 0, 13.37, accuracy: 0.01)
        let daemonSettings = try String(contentsOfFile: run.path(SetupPlan.Path.daemonSettings), encoding: .utf8)
        XCTAssertTrue(daemonSettings.contains("password = 'new # secret'"), daemonSettings)

        // Applied, the inbox sets nothing and holds no password.
        let rewritten = try String(contentsOfFile: inbox, encoding: .utf8)
        XCTAssertFalse(rewritten.contains("new # secret"))
        XCTAssertFalse(rewritten.contains("word 123"))
        XCTAssertTrue(try SetupSettings.read(rewritten, zoneInfo: zoneInfo).isEmpty)
    }

    func testAnInvalidFormIsRefusedByKeyAndNothingIsWritten() throws {
        let port = try start()
        let answer = try send("POST", "/api/settings", port: port, password: Self.password,
                              body: #"{"wifi": {"ssid": "HomeNet", "password": "short"}, "system": {"timezone": "Mars/Olympus"}}"#)
        XCTAssertEqual(answer.status, 422, answer.body)
        struct Refusal: Decodable {
            struct Problem: Decodable { var key: String; var message: String }
            var accepted: Bool
            var problems: [Problem]
        }
        let refusal = try JSONDecoder().decode(Refusal.self, from: Data(answer.body.utf8))
        XCTAssertFalse(refusal.accepted)
        XCTAssertEqual(refusal.problems.map(\.key), ["wifi.password", "system.timezone"])
        XCTAssertTrue(refusal.problems[0].message.contains("8 to 63"), refusal.problems[0].message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inbox))

        let other = try send("POST", "/api/settings", port: port, password: Self.password,
                             body: #"{"system": {"ssh_authorized_key": "ssh-ed25519 AAAA"}}"#)
        XCTAssertEqual(other.status, 422)
        XCTAssertTrue(other.body.contains("system.ssh_authorized_key"), other.body)
        XCTAssertEqual(try send("POST", "/api/settings", port: port, body: #"{"system": {"timezone": "Europe/London"}}"#).status, 401)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inbox))
    }

    func testPlacesAreSearchedOffline() throws {
        let port = try start()
        let answer = try send("GET", "/api/places?q=new%20y", port: port)
        XCTAssertEqual(answer.status, 200)
        struct Place: Decodable, Equatable { var place: String; var timezone: String }
        XCTAssertEqual(try JSONDecoder().decode([Place].self, from: Data(answer.body.utf8)),
                       [Place(place: "New York", timezone: "America/New_York")])
        XCTAssertEqual(try send("GET", "/api/places?q=", port: port).status, 400)
        XCTAssertEqual(try send("GET", "/api/places?q=" + String(repeating: "x", count: 101), port: port).status, 400)
    }

    func testTheScanListIsTheScanFilesNetworks() throws {
        try write("""
            BSS 00:11:22:33:44:55(on wlan0)
            \tsignal: -70.00 dBm
            \tSSID: Upstairs
            \tRSN:\t * Version: 1
            BSS 00:11:22:33:44:56(on wlan0)
            \tsignal: -40.00 dBm
            \tSSID: \\x1b[31mRed
            BSS 00:11:22:33:44:57(on wlan0)
            \tsignal: -30.00 dBm
            \tSSID: \\x00\\x00\\x00

            """, to: scanFile)
        let port = try start()
        let answer = try send("GET", "/api/wifi/networks", port: port, password: Self.password)
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(try JSONDecoder().decode([WifiScan.Network].self, from: Data(answer.body.utf8)),
                       [WifiScan.Network(ssid: " [31mRed", signalDBm: -40, security: .open),
                        WifiScan.Network(ssid: "Upstairs", signalDBm: -70, security: .wpa2)])
    }

    func testWithoutSetupThePageHasNoSettings() throws {
        let port = try start(setup: false)
        XCTAssertEqual(try send("GET", "/api/settings", port: port, password: Self.password).status, 404)
        XCTAssertFalse(try send("GET", "/", port: port).body.contains("settings-screen"))
    }

    // MARK: The captive portal

    /// The loopback client is on the access point when its address is 127.0.0.1.
    func testTheAccessPointsClientsAreSentToTheSetupPageAndNeedNoPasswordForIt() throws {
        try writeHotspot(address: "127.0.0.1")
        let port = try start()
        for (target, host) in [("/generate_204", "connectivitycheck.gstatic.com"), ("/hotspot-detect.html", "captive.apple.com"),
                               ("/", "example.com"), ("/generate_204", "127.0.0.1"), ("/api/settings", "detectportal.firefox.com")] {
            let answer = try send("GET", target, port: port, host: host)
            XCTAssertEqual(answer.status, 302, "\(host)\(target)")
            XCTAssertTrue(answer.head.contains("Location: http://127.0.0.1/"), answer.head)
        }
        XCTAssertEqual(try send("POST", "/api/settings", port: port, host: "evil.example", body: "{}").status, 302)

        let page = try send("GET", "/", port: port, host: "127.0.0.1")
        XCTAssertEqual(page.status, 200)
        let settings = try XCTUnwrap(page.body.range(of: #"<details id="settings-screen" open>"#))
        let now = try XCTUnwrap(page.body.range(of: #"<section id="now""#))
        XCTAssertLessThan(settings.lowerBound, now.lowerBound, "the page opens on the settings screen")
        XCTAssertEqual(try send("GET", "/api/settings", port: port, host: "127.0.0.1").status, 200)
        XCTAssertEqual(try send("GET", "/api/wifi/networks", port: port, host: "127.0.0.1").status, 200)

        let answer = try send("POST", "/api/settings", port: port, host: "127.0.0.1",
                              body: #"{"wifi": {"ssid": "HomeNet\u0007", "password": "12345678"}}"#)
        XCTAssertEqual(answer.status, 422, "the rules hold for the access point's clients too")
        let accepted = try send("POST", "/api/settings", port: port, host: "127.0.0.1",
                                body: #"{"wifi": {"ssid": "HomeNet", "password": "12345678"}, "system": {"timezone": "Europe/Berlin"}}"#)
        XCTAssertEqual(accepted.status, 202, accepted.body)
        XCTAssertTrue(FileManager.default.fileExists(atPath: inbox))
        XCTAssertEqual(joining.network, "HomeNet", "the display says which network it joins")
        XCTAssertEqual(try send("POST", "/api/play", port: port, host: "127.0.0.1", body: "{}").status, 401,
                       "the rest of the page keeps its password")
    }

    /// A client that is not on the access point (here: the access point is 10.42.0.1, the client 127.0.0.1) gets
    /// the page as always: no redirects, the password for the settings.
    func testOtherClientsKeepThePagesAuthentication() throws {
        try writeHotspot(address: "10.42.0.1")
        let port = try start()
        XCTAssertEqual(try send("GET", "/generate_204", port: port).status, 404)
        XCTAssertEqual(try send("GET", "/", port: port, host: "connectivitycheck.gstatic.com").status, 421)
        XCTAssertEqual(try send("GET", "/api/settings", port: port).status, 401)
        let form = #"{"system": {"timezone": "Europe/London"}}"#
        XCTAssertEqual(try send("POST", "/api/settings", port: port, body: form).status, 401)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inbox))
        let listing = try send("GET", "/api/settings", port: port, password: Self.password)
        XCTAssertTrue(listing.body.contains(#""hotspot":true"#), listing.body)
        XCTAssertEqual(try send("POST", "/api/settings", port: port, password: Self.password, body: form).status, 202)
        XCTAssertNil(joining.network, "no network in the form")
    }
}
