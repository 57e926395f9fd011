import ApplianceSetup
import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

final class SetupSettingsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var zoneInfo: ZoneInfoDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "setup-settings")
        zoneInfo = ZoneInfoDirectory(path: try TZDataFixture.make(in: directory.url))
    }

    override func tearDown() {
        directory.remove()
    }

    /// A valid `ssh-ed25519` line: the blob holds the length-prefixed type, then a 32-byte key.
    static func ed25519Key(comment: String = "you@laptop") -> String {
        var blob: [UInt8] = [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32]
        blob += (0..<32).map { UInt8($0) }
        return "ssh-ed25519 \(Data(blob).base64EncodedString())" + (comment.isEmpty ? "" : " \(comment)")
    }

    /// Files that must be refused, each with the key and line the first problem names.
    static let rejections: [(toml: String, key: String, line: Int)] = [
        ("[wifi]\nssid = \"\(String(repeating: "x", count: 33))\"\npassword = \"long enough\"", "wifi.ssid", 2),
        ("[wifi]\nssid = \"\"\npassword = \"long enough\"", "wifi.ssid", 2),
        ("[wifi]\nssid = \"bell\\u0007\"\npassword = \"long enough\"", "wifi.ssid", 2),
        ("[wifi]\nssid = \"Home\"", "wifi.ssid", 2),
        ("[wifi]\nssid = \"Home\"\npassword = \"short\"", "wifi.password", 3),
        ("[wifi]\nssid = \"Home\"\npassword = \"pässwort-lang\"", "wifi.password", 3),
        ("[wifi]\nssid = \"Home\"\npassword = \"\(String(repeating: "p", count: 64))\"", "wifi.password", 3),
        ("[wifi]\npassword = \"long enough\"", "wifi.password", 2),
        ("[wifi]\ncountry = \"Germany\"", "wifi.country", 2),
        ("[wifi]\ncountry = \"XX\"", "wifi.country", 2),
        ("[system]\nhostname = \"-radio\"", "system.hostname", 2),
        ("[system]\nhostname = \"radio_1\"", "system.hostname", 2),
        ("[system]\nhostname = \"\(String(repeating: "a", count: 64))\"", "system.hostname", 2),
        ("[system]\nhostname = 3", "system.hostname", 2),
        ("[system]\ntimezone = \"../../etc/passwd\"", "system.timezone", 2),
        ("[system]\ntimezone = \"/etc/localtime\"", "system.timezone", 2),
        ("[system]\ntimezone = \"Mars/Olympus_Mons\"", "system.timezone", 2),
        ("[system]\ntimezone = \"zone1970.tab\"", "system.timezone", 2),
        ("[system]\nssh_authorized_key = \"from=\\\"10.0.0.1\\\" \(ed25519Key())\"", "system.ssh_authorized_key", 2),
        ("[system]\nssh_authorized_key = \"ssh-ed25519 not*base64\"", "system.ssh_authorized_key", 2),
        ("[system]\nssh_authorized_key = \"ssh-rsa \(ed25519Key().split(separator: " ")[1])\"", "system.ssh_authorized_key", 2),
        ("[system]\nssh_authorized_key = \"ssh-dss AAAAB3NzaC1kc3MAAACBAP\"", "system.ssh_authorized_key", 2),
        ("[system]\nssh_authorized_key = \"\(ed25519Key())\\nssh-ed25519 AAAA\"", "system.ssh_authorized_key", 2),
        ("[location]\nlatitude = 52.5", "location.longitude", 1),
        ("[location]\nlatitude = 95\nlongitude = 13", "location.latitude", 2),
        ("[location]\nlatitude = \"52\"\nlongitude = 13", "location.latitude", 2),
        ("[location]\nlatitude = nan\nlongitude = 13", "location.latitude", 2),
        ("[location]\nlatitude = 52\nlongitude = 13\nplace = \"Berlin\"", "location.place", 4),
        ("[location]\nplace = \"Atlantis, Ocean\"", "location.place", 2),
        ("[web]\npassword = \"\"", "web.password", 2),
        ("[web]\npassword = \"\(String(repeating: "w", count: 129))\"", "web.password", 2),
        ("[web]\npassword = \"esc\\u001B[2J\"", "web.password", 2),
        ("[audio]\ndevice = \"hw 1\"", "audio.device", 2),
        ("[audio]\ndevice = \"\"", "audio.device", 2),
        ("[catalog]\nservers = [\"ftp://mirror.example\"]", "catalog.servers", 2),
        ("[catalog]\nservers = [\"https://\"]", "catalog.servers", 2),
        ("[catalog]\nservers = [\"https://user@mirror.example\"]", "catalog.servers", 2),
        ("[catalog]\nservers = [\"https://mirror example\"]", "catalog.servers", 2),
        ("[catalog]\nservers = [\"http://a\", \"http://b\", \"http://c\", \"http://d\", \"http://e\", \"http://f\", \"http://g\", \"http://h\", \"http://i\"]", "catalog.servers", 2),
        ("[catalog]\nservers = \"https://mirror.example\"", "catalog.servers", 2),
        ("[catalog]\nservers = [\n  \"https://mirror.example\",\n]", "catalog.servers", 2),
        ("[catalog]\ndatabase = \"/tmp/x.sqlite\"", "catalog.database", 2),
        ("# comment\n[wifi]\nbssid = \"00:11:22:33:44:55\"", "wifi.bssid", 3),
        ("[network]\nssid = \"x\"", "network", 1),
        ("[wifi]\nssid = \"Home\n", "", 2),
        ("[wifi]\nssid = \"Home\"\npassword = \"\"\"\nlong enough\"\"\"", "wifi.password", 3),
        ("wifi.ssid = \"Home\"\nwifi.password = \"long enough\"", "wifi.ssid", 1),
        ("[wifi]\r\nssid = \"Home\"\r\npassword = \"short\"\r\n", "wifi.password", 3),
    ]

    func testEachRejectionNamesItsKeyAndLine() throws {
        for rejection in Self.rejections {
            XCTAssertThrowsError(try SetupSettings.read(rejection.toml, zoneInfo: zoneInfo), rejection.toml) { error in
                guard let problem = (error as? SetupProblems)?.problems.first else { return XCTFail("\(error)") }
                XCTAssertEqual(problem.key, rejection.key, rejection.toml)
                XCTAssertEqual(problem.line, rejection.line, rejection.toml)
                XCTAssertFalse(problem.message.isEmpty)
            }
        }
    }

    func testEveryKeyAccepted() throws {
        let text = """
            [wifi]
            ssid = "Café Wi-Fi 📻"
            password = "correct horse battery staple"
            country = "de"

            [system]
            hostname = "Kitchen-Radio"
            timezone = "Europe/Berlin"
            ssh_authorized_key = "  \(Self.ed25519Key())  "

            [location]
            latitude = 52
            longitude = 13.405

            [web]
            password = "choose one, with spaces: ünïcode"

            [audio]
            device = "plughw:CARD=DAC,DEV=0"

            [catalog]
            servers = ["https://rb.example.org", "http://198.18.0.2:8080/"]
            """
        let settings = try SetupSettings.read(text, zoneInfo: zoneInfo)
        XCTAssertEqual(settings.wifiSSID, Array("Café Wi-Fi 📻".utf8))
        XCTAssertEqual(settings.wifiKey, .passphrase("correct horse battery staple"))
        XCTAssertEqual(settings.wifiCountry, "DE")
        XCTAssertEqual(settings.hostname, "kitchen-radio")
        XCTAssertEqual(settings.timezone, "Europe/Berlin")
        XCTAssertEqual(settings.sshAuthorizedKey?.line, Self.ed25519Key())
        XCTAssertEqual(settings.location, Coordinate(latitude: 52, longitude: 13.405))
        XCTAssertEqual(settings.webPassword, "choose one, with spaces: ünïcode")
        XCTAssertEqual(settings.audioDevice, "plughw:CARD=DAC,DEV=0")
        XCTAssertEqual(settings.catalogServers, ["https://rb.example.org", "http://198.18.0.2:8080/"])
        XCTAssertEqual(settings.lines, [
            "wifi.ssid": 2, "wifi.password": 3, "wifi.country": 4, "system.hostname": 7, "system.timezone": 8,
            "system.ssh_authorized_key": 9, "location.latitude": 12, "location.longitude": 13, "web.password": 16,
            "audio.device": 19, "catalog.servers": 22,
        ])
    }

    func testRawPSKAndOtherKeyTypes() throws {
        let psk = String(repeating: "aB", count: 32)
        let settings = try SetupSettings.read("[wifi]\nssid = \"Home\"\npassword = \"\(psk)\"", zoneInfo: zoneInfo)
        XCTAssertEqual(settings.wifiKey, .psk([UInt8](repeating: 0xAB, count: 32)))
        for type in ["ssh-rsa", "ecdsa-sha2-nistp256", "sk-ssh-ed25519@openssh.com"] {
            let blob: [UInt8] = [0, 0, 0, UInt8(type.utf8.count)] + Array(type.utf8) + [0, 0, 0, 1, 7]
            let key = try SSHAuthorizedKey("\(type) \(Data(blob).base64EncodedString())")
            XCTAssertEqual(key.type, type)
            XCTAssertEqual(key.comment, "")
        }
    }

    func testSSIDAloneKeepsTheKeyAppliedBeforeForTheSameNetworkOnly() throws {
        let applied = WPASupplicantConfig(ssid: Array("Home".utf8), psk: [UInt8](repeating: 7, count: 32), country: "DE")
        let same = try SetupSettings.read("[wifi]\nssid = \"Home\"", zoneInfo: zoneInfo, appliedWifi: applied)
        XCTAssertEqual(same.wifiKey, .keptPSK([UInt8](repeating: 7, count: 32)))
        XCTAssertThrowsError(try SetupSettings.read("[wifi]\nssid = \"Other\"", zoneInfo: zoneInfo, appliedWifi: applied))
        // A password alone is for the network applied before.
        let password = try SetupSettings.read("[wifi]\npassword = \"new password\"", zoneInfo: zoneInfo, appliedWifi: applied)
        XCTAssertEqual(password.wifiSSID, Array("Home".utf8))
        XCTAssertEqual(password.wifiKey, .passphrase("new password"))
    }

    func testPlaceIsLookedUpOffline() throws {
        let berlin = try SetupSettings.read("[location]\nplace = \"Berlin, Germany\"", zoneInfo: zoneInfo)
        XCTAssertEqual(berlin.location, Coordinate(latitude: 52.5, longitude: 13 + 22.0 / 60))
    }

    func testTheShippedFileSetsNothing() throws {
        let shipped = ProjectPaths.root.appendingPathComponent("scripts/image/boot/wavedial-setup.toml")
        let settings = try SetupSettings.read(String(contentsOf: shipped, encoding: .utf8), zoneInfo: zoneInfo)
        XCTAssertTrue(settings.isEmpty)
    }

    /// The shipped file's examples, uncommented, are values the radio takes (but the SSH key, cut short there).
    func testTheShippedFileUncommentedIsValid() throws {
        let shipped = ProjectPaths.root.appendingPathComponent("scripts/image/boot/wavedial-setup.toml")
        let lines = try String(contentsOf: shipped, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        func uncommented(except skipped: String) -> String {
            lines.map { line -> String in
                guard line.hasPrefix("#"), line.contains(" = "), !line.hasPrefix("#\(skipped)") else { return String(line) }
                if line.hasPrefix("#ssh_authorized_key") { return "ssh_authorized_key = \"\(Self.ed25519Key())\"" }
                return String(line.dropFirst())
            }.joined(separator: "\n")
        }
        let settings = try SetupSettings.read(uncommented(except: "place"), zoneInfo: zoneInfo)
        XCTAssertEqual(settings.wifiSSID, Array("MyHomeNetwork".utf8))
        XCTAssertEqual(settings.wifiKey, .passphrase("correct horse battery staple"))
        XCTAssertEqual(settings.wifiCountry, "DE")
        XCTAssertEqual(settings.hostname, "wavedial")
        XCTAssertEqual(settings.timezone, "Europe/Berlin")
        XCTAssertNotNil(settings.sshAuthorizedKey)
        XCTAssertEqual(settings.location, Coordinate(latitude: 52.52, longitude: 13.405))
        XCTAssertEqual(settings.webPassword, "choose one")
        XCTAssertEqual(settings.audioDevice, "default")
        XCTAssertEqual(settings.catalogServers, ["https://radio-browser.example.org"])
        XCTAssertEqual(settings.lines.count, 11)
        let byPlace = try SetupSettings.read(uncommented(except: "l"), zoneInfo: zoneInfo)
        XCTAssertEqual(byPlace.location, Coordinate(latitude: 52.5, longitude: 13 + 22.0 / 60))
    }
}
