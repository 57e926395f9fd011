import ApplianceSetup
import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The web page's settings form as a setup file's text: each value on its own line, escaped so that what the
/// setup file's rules read back (and `setup apply` applies) is exactly what was sent; keys the page does not set,
/// wrong types and an empty form refused by key.
final class SetupFormTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var zoneInfo: ZoneInfoDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "setup-form")
        zoneInfo = ZoneInfoDirectory(path: try TZDataFixture.make(in: directory.url))
    }

    override func tearDown() {
        directory.remove()
    }

    private func form(_ json: String) throws -> SetupForm {
        do {
            return try SetupForm.decode(Array(json.utf8))
        } catch {
            XCTFail("refused: \(error.problems)")
            throw error
        }
    }

    func testTheTextSetsEachGivenKeyOnItsOwnLine() throws {
        let form = try form("""
            {"wifi": {"ssid": "HomeNet", "password": "correct horse", "country": "de"},
             "system": {"hostname": "kitchen", "timezone": "Europe/Berlin"},
             "location": {"latitude": 52.5, "longitude": 13.25}, "web": {"password": "web secret"}}
            """)
        XCTAssertEqual(form.text, """
            # Written by the radio's web page for `wavedial setup apply`, which applies it as root.

            [wifi]
            ssid = "HomeNet"
            password = "correct horse"
            country = "de"

            [system]
            hostname = "kitchen"
            timezone = "Europe/Berlin"

            [location]
            latitude = 52.5
            longitude = 13.25

            [web]
            password = "web secret"

            """)
        let settings = try SetupSettings.read(try form.checked(zoneInfo: zoneInfo, appliedWifi: nil), zoneInfo: zoneInfo)
        XCTAssertEqual(settings.wifiSSID, Array("HomeNet".utf8))
        XCTAssertEqual(settings.wifiKey, .passphrase("correct horse"))
        XCTAssertEqual(settings.wifiCountry, "DE")
        XCTAssertEqual(settings.location, Coordinate(latitude: 52.5, longitude: 13.25))
        XCTAssertEqual(settings.webPassword, "web secret")
    }

    /// Quotes, backslashes, `#`, TOML-looking text and non-ASCII come back as sent.
    func testHostileValuesReadBackAsSent() throws {
        let ssid = #"A "q" \n\ #[x]"#
        let password = #"p"a\s#s = [w]"#
        let webPassword = "Grüße \"\\\" 🎵 ' '''"
        let body = try JSONEncoder().encode(["wifi": ["ssid": ssid, "password": password], "web": ["password": webPassword]])
        let form = try form(String(decoding: body, as: UTF8.self))
        let text = try form.checked(zoneInfo: zoneInfo, appliedWifi: nil)
        XCTAssertEqual(text.split(separator: "\n").count, 6, text)
        let settings = try SetupSettings.read(text, zoneInfo: zoneInfo)
        XCTAssertEqual(settings.wifiSSID, Array(ssid.utf8))
        XCTAssertEqual(settings.wifiKey, .passphrase(password))
        XCTAssertEqual(settings.webPassword, webPassword)
    }

    func testAControlCharacterIsEscapedAndThenRefusedByTheRules() throws {
        let form = try form(#"{"wifi": {"ssid": "Evil\u001b[2J\nName", "password": "12345678"}}"#)
        XCTAssertFalse(form.text.contains("\u{1B}"))
        XCTAssertEqual(form.text.split(separator: "\n").count, 4)
        XCTAssertThrowsError(try form.checked(zoneInfo: zoneInfo, appliedWifi: nil)) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), ["wifi.ssid"])
        }
    }

    func testProblemsAreReportedByKey() throws {
        let form = try form(#"{"wifi": {"ssid": "HomeNet", "password": "short"}, "system": {"timezone": "Mars/Olympus"}, "location": {"place": "Atlantis"}}"#)
        XCTAssertThrowsError(try form.checked(zoneInfo: zoneInfo, appliedWifi: nil)) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), ["wifi.password", "system.timezone", "location.place"])
        }
    }

    func testKeysThePageDoesNotSetAreRefused() throws {
        let form = try form(#"{"system": {"ssh_authorized_key": "ssh-ed25519 AAAA", "timezone": "Europe/Berlin"}, "audio": {"device": "hw:0"}}"#)
        XCTAssertEqual(form.otherKeys, ["audio", "system.ssh_authorized_key"])
        XCTAssertFalse(form.text.contains("ssh"))
        XCTAssertThrowsError(try form.checked(zoneInfo: zoneInfo, appliedWifi: nil)) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), ["audio", "system.ssh_authorized_key"])
        }
    }

    func testWrongTypesAndAnEmptyFormAreRefused() throws {
        XCTAssertThrowsError(try SetupForm.decode(Array(#"{"location": {"latitude": "north"}}"#.utf8))) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), ["location.latitude"])
        }
        XCTAssertThrowsError(try SetupForm.decode(Array("[1, 2]".utf8))) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), [""])
        }
        XCTAssertThrowsError(try form("{}").checked(zoneInfo: zoneInfo, appliedWifi: nil)) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), [""])
        }
    }

    func testAnSSIDGivenAgainWithoutAPasswordKeepsTheAppliedKey() throws {
        let applied = WPASupplicantConfig(ssid: Array("HomeNet".utf8), psk: Array(repeating: 7, count: 32), country: "DE")
        let form = try form(#"{"wifi": {"ssid": "HomeNet", "country": "GB"}}"#)
        let settings = try SetupSettings.read(try form.checked(zoneInfo: zoneInfo, appliedWifi: applied), zoneInfo: zoneInfo,
                                              appliedWifi: applied)
        XCTAssertEqual(settings.wifiKey, .keptPSK(Array(repeating: 7, count: 32)))
        XCTAssertEqual(settings.wifiCountry, "GB")
    }

    /// The daemon reads the network's name and country only (root's file has the key): the same network again
    /// is no change of network, and a new one needs its password.
    func testWithoutTheKeyTheSameSSIDIsNoChangeAndANewOneNeedsItsPassword() throws {
        let summary = WPASupplicantConfig(ssid: Array("HomeNet".utf8), country: "DE")
        let text = try form(#"{"wifi": {"ssid": "HomeNet", "country": "GB"}}"#).checked(zoneInfo: zoneInfo, appliedWifi: summary)
        let settings = try SetupSettings.read(text, zoneInfo: zoneInfo)
        XCTAssertNil(settings.wifiSSID)
        XCTAssertEqual(settings.wifiCountry, "GB")
        XCTAssertThrowsError(try form(#"{"wifi": {"ssid": "OtherNet"}}"#).checked(zoneInfo: zoneInfo, appliedWifi: summary)) { error in
            XCTAssertEqual((error as? SetupProblems)?.problems.map(\.key), ["wifi.ssid"])
        }
    }

    func testPlacesAreFoundAsTyped() throws {
        let table = try XCTUnwrap(zoneInfo.zoneTable)
        XCTAssertEqual(table.places(matching: "ber", limit: 10).map(\.name), ["Europe/Berlin"])
        XCTAssertEqual(table.places(matching: "SÃO", limit: 10).map(\.name), ["America/Sao_Paulo"])
        XCTAssertEqual(table.places(matching: "o", limit: 10).map(\.city), ["London", "New York", "Sao Paulo"])
        XCTAssertEqual(table.places(matching: "o", limit: 2).count, 2)
        XCTAssertEqual(table.places(matching: "  ", limit: 10), [])
    }
}
