import ApplianceSetup
import Foundation
import WavedialConfig
import WavedialCore
import WavedialTestSupport
import XCTest

final class SetupRunTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var zoneinfo: String!
    private var root: String { directory.path("root") }
    private var setupFile: String { directory.path("boot/wavedial-setup.toml") }
    private var databasePath: String { directory.path("root/data/wavedial/wavedial.sqlite") }
    private let day = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "setup-run")
        zoneinfo = try TZDataFixture.make(in: directory.url)
        try FileManager.default.createDirectory(atPath: directory.path("boot"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        directory.remove()
    }

    static let fullFile = """
        # The owner's notes stay.
        [wifi]
        ssid = "Home"
        password = "correct horse battery staple"
        country = "de"

        [system]
        hostname = "Kitchen"   # the radio's name
        timezone = "Europe/Berlin"
        ssh_authorized_key = "\(SetupSettingsTests.ed25519Key())"

        [location]
        place = "Berlin, Germany"

        [web]
        password = "web secret"

        [audio]
        device = "hw:1,0"

        """

    func testFullApplyWritesEachFileWithItsMode() throws {
        try write(Self.fullFile)
        let outcome = try apply()
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.applied, ["wifi", "hostname", "timezone", "ssh_authorized_key", "location", "web_password", "audio_device"])

        let psk = WPAPreSharedKey.derive(passphrase: "correct horse battery staple", ssid: Array("Home".utf8))
        let wifi = try text(SetupPlan.Path.wifi)
        for line in ["ctrl_interface=DIR=/run/wpa_supplicant", "update_config=0", "country=DE", "network={", "\tssid=486f6d65",
                     "\tpsk=\(psk.map { String(format: "%02x", $0) }.joined())", "\tkey_mgmt=WPA-PSK WPA-PSK-SHA256",
                     "\tieee80211w=1", "}"] {
            XCTAssertTrue(wifi.split(separator: "\n").contains(Substring(line)), line)
        }
        XCTAssertFalse(wifi.contains("horse"))
        XCTAssertEqual(try mode(SetupPlan.Path.wifi), 0o600)
        // Its name and country for the web page's settings screen (not root), without the key.
        let summary = WPASupplicantConfig(text: try text(SetupPlan.Path.wifiNetwork))
        XCTAssertEqual(summary, WPASupplicantConfig(ssid: Array("Home".utf8), country: "DE"))
        XCTAssertEqual(try mode(SetupPlan.Path.wifiNetwork), 0o644)
        XCTAssertEqual(try text(SetupPlan.Path.hostname), "kitchen\n")
        XCTAssertEqual(try mode(SetupPlan.Path.hostname), 0o644)
        XCTAssertEqual(try text(SetupPlan.Path.timezone), "Europe/Berlin\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path(SetupPlan.Path.localtime)),
                       "/usr/share/zoneinfo/Europe/Berlin")
        XCTAssertEqual(try text(SetupPlan.Path.authorizedKeys), SetupSettingsTests.ed25519Key() + "\n")
        XCTAssertEqual(try mode(SetupPlan.Path.authorizedKeys), 0o600)
        XCTAssertEqual(try WavedialDatabase.open(path: databasePath).storedLocation(),
                       Coordinate(latitude: 52.5, longitude: 13 + 22.0 / 60))

        XCTAssertEqual(try mode(SetupPlan.Path.daemonSettings), 0o640)
        XCTAssertEqual(try status(SetupPlan.Path.daemonSettings).st_gid, try status("data/wavedial").st_gid)
        XCTAssertTrue(try text(SetupPlan.Path.daemonSettings).hasPrefix("# Written by `wavedial setup apply`"))
        let daemon = try Configuration.load(path: path(SetupPlan.Path.daemonSettings))
        XCTAssertTrue(daemon.web.isEnabled)
        XCTAssertEqual(daemon.web.bind, "::")
        XCTAssertEqual(daemon.web.port, 80)
        XCTAssertEqual(daemon.web.password, "web secret")
        XCTAssertEqual(daemon.audio.output.device, "hw:1,0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path(SetupPlan.Path.problem)))
    }

    func testAppliedValuesAreTakenOffTheCardAndASecondRunWritesNothing() throws {
        try write(Self.fullFile)
        try apply()
        let rewritten = try String(contentsOfFile: setupFile, encoding: .utf8)
        XCTAssertEqual(rewritten, """
            # Applied by the radio on 2027-01-15: wifi, hostname, timezone, ssh_authorized_key, location, web_password, audio_device
            # The owner's notes stay.
            [wifi]
            #ssid = "Home"
            #password = "(set on 2027-01-15; removed from this card)"
            #country = "de"

            [system]
            #hostname = "Kitchen"   # the radio's name
            #timezone = "Europe/Berlin"
            #ssh_authorized_key = "\(SetupSettingsTests.ed25519Key())"

            [location]
            #place = "Berlin, Germany"

            [web]
            #password = "(set on 2027-01-15; removed from this card)"

            [audio]
            #device = "hw:1,0"

            """)
        let before = try snapshot()
        let again = try apply()
        XCTAssertEqual(again, SetupRun.Outcome())
        XCTAssertEqual(try snapshot(), before, "a second run must write nothing")
    }

    func testRewriteKeepsCRLFByteOrderMarkAndIndentation() throws {
        let original = "\u{FEFF}# notes\r\n\r\n[wifi]\r\n  ssid = \"Home\" # mine\r\n\tpassword = 'long enough'\r\n[audio]\r\n#device = \"x\"\r\n"
        try write(original)
        XCTAssertEqual(try apply().applied, ["wifi"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: setupFile))
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "\u{FEFF}# Applied by the radio on 2027-01-15: wifi\r\n# notes\r\n\r\n[wifi]\r\n  #ssid = \"Home\" # mine\r\n"
                       + "\t#password = \"(set on 2027-01-15; removed from this card)\"\r\n[audio]\r\n#device = \"x\"\r\n")
        XCTAssertEqual(try apply(), SetupRun.Outcome())
    }

    func testAnyProblemWritesNothingButTheDisplayLine() throws {
        for rejection in SetupSettingsTests.rejections {
            let folder = try TemporaryDirectory(prefix: "setup-refused")
            defer { folder.remove() }
            let file = folder.path("wavedial-setup.toml")
            // A good key first: it must not be applied either.
            let text = "[system]\nhostname = \"radio\"\n" + rejection.toml.replacingOccurrences(of: "[system]\n", with: "")
            try text.write(toFile: file, atomically: false, encoding: .utf8)
            let outcome = try apply(file: file, root: folder.path("root"))
            XCTAssertFalse(outcome.problems.isEmpty, rejection.toml)
            XCTAssertEqual(outcome.applied, [])
            XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text, "the file is left as it was")
            XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: folder.path("root")).sorted(),
                           ["run", "run/wavedial-setup", "run/wavedial-setup/problem"], rejection.toml)
            let line = try String(contentsOfFile: folder.path("root/run/wavedial-setup/problem"), encoding: .utf8)
            XCTAssertTrue(line.hasPrefix("Setup file"), line)
            XCTAssertTrue(line.hasSuffix("\n"))
            XCTAssertLessThanOrEqual(line.count - 1, 40, line)
            XCTAssertTrue(line.utf8.allSatisfy { $0 < 0x80 }, line)
        }
    }

    func testDisplayLine() {
        XCTAssertEqual(SetupProblem(key: "wifi.password", line: 12, message: "x").displayLine, "Setup file line 12: bad Wi-Fi password")
        for key in ["", "wifi.ssid", "system.ssh_authorized_key", "location.place", "web.password", "network.other"] {
            XCTAssertLessThanOrEqual(SetupProblem(key: key, line: Int.max, message: "x").displayLine.count, 40)
        }
        XCTAssertEqual(SetupProblem(key: "", line: nil, message: "x").displayLine, "Setup file: not valid TOML")
        XCTAssertEqual(SetupProblem(key: "wifi.password", line: 12, message: "must be …").report(file: "wavedial-setup.toml"),
                       "wavedial-setup.toml line 12: [wifi] password: must be …")
        XCTAssertEqual(SetupProblem(key: "network", line: 3, message: "is not a known setting").report(file: "f"),
                       "f line 3: network: is not a known setting")
    }

    func testSuccessRemovesAStaleProblemLine() throws {
        try write("[wifi]\nssid = \"Home\"")
        XCTAssertEqual(try apply().problems.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path(SetupPlan.Path.problem)))
        try write("[wifi]\nssid = \"Home\"\npassword = \"long enough\"")
        XCTAssertEqual(try apply().applied, ["wifi"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path(SetupPlan.Path.problem)))
    }

    func testMissingFileIsNothingToDo() throws {
        XCTAssertEqual(try apply(), SetupRun.Outcome())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root), [])
    }

    func testTimeZoneAloneGivesACoarseLocationOnlyWhenNoneIsSet() throws {
        try write("[system]\ntimezone = \"America/New_York\"")
        XCTAssertEqual(try apply().applied, ["timezone", "location"])
        let newYork = try XCTUnwrap(WavedialDatabase.open(path: databasePath).storedLocation())
        XCTAssertEqual(newYork.latitude, 40 + 42.0 / 60 + 51.0 / 3600, accuracy: 1e-9)

        // A location stored already stays.
        try write("[system]\ntimezone = \"Europe/Berlin\"")
        XCTAssertEqual(try apply().applied, ["timezone"])
        XCTAssertEqual(try WavedialDatabase.open(path: databasePath).storedLocation(), newYork)

        // So does the configuration's.
        let other = try TemporaryDirectory(prefix: "setup-config-location")
        defer { other.remove() }
        try write("[system]\ntimezone = \"Europe/Berlin\"")
        var opened = false
        var setup = SetupRun(file: setupFile, root: other.path("root"), zoneInfo: ZoneInfoDirectory(path: zoneinfo),
                             configuredLocation: Coordinate(latitude: 1, longitude: 2)) {
            opened = true
            return try WavedialDatabase.open(path: other.path("db.sqlite"))
        }
        setup.now = day
        XCTAssertEqual(try setup.perform().applied, ["timezone"])
        XCTAssertFalse(opened, "the database is not opened when the configuration has a location")
    }

    func testWifiCountryOrSSIDAloneKeepThePSKAppliedBefore() throws {
        try write("[wifi]\nssid = \"Home\"\npassword = \"long enough\"\ncountry = \"DE\"")
        try apply()
        let first = WPASupplicantConfig(text: try text(SetupPlan.Path.wifi))
        try write("[wifi]\ncountry = \"gb\"")
        try apply()
        XCTAssertEqual(WPASupplicantConfig(text: try text(SetupPlan.Path.wifi)),
                       WPASupplicantConfig(ssid: first.ssid, psk: first.psk, country: "GB"))
        try write("[wifi]\nssid = \"Home\"")
        XCTAssertEqual(try apply().applied, ["wifi"])
        XCTAssertEqual(WPASupplicantConfig(text: try text(SetupPlan.Path.wifi)).psk, first.psk)
    }

    func testSSHKeyIsAddedOnceBesideOtherKeys() throws {
        let other = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ other@host"
        try FileManager.default.createDirectory(atPath: path("data/ssh/authorized_keys"), withIntermediateDirectories: true)
        try (other + "\n").write(toFile: path(SetupPlan.Path.authorizedKeys), atomically: false, encoding: .utf8)
        try write("[system]\nssh_authorized_key = \"\(SetupSettingsTests.ed25519Key())\"")
        try apply()
        XCTAssertEqual(try text(SetupPlan.Path.authorizedKeys), other + "\n" + SetupSettingsTests.ed25519Key() + "\n")
        // The same key again, with another comment: already there.
        try write("[system]\nssh_authorized_key = \"\(SetupSettingsTests.ed25519Key(comment: "renamed"))\"")
        XCTAssertEqual(try apply().applied, ["ssh_authorized_key"])
        XCTAssertEqual(try text(SetupPlan.Path.authorizedKeys), other + "\n" + SetupSettingsTests.ed25519Key() + "\n")
    }

    func testDaemonSettingsAreMergedAndLoad() throws {
        try FileManager.default.createDirectory(atPath: path("data/wavedial"), withIntermediateDirectories: true)
        try "[audio]\ndevice = \"hw:0\"\n\n[dial]\nstations = 20\n".write(
            toFile: path(SetupPlan.Path.daemonSettings), atomically: false, encoding: .utf8)
        try write("[web]\npassword = 'it''s \"mine\"'".replacingOccurrences(of: "''", with: "’"))
        XCTAssertEqual(try apply().applied, ["web_password"])
        let merged = try Configuration.load(path: path(SetupPlan.Path.daemonSettings))
        XCTAssertEqual(merged.audio.output.device, "hw:0")
        XCTAssertEqual(merged.dial.stations, 20)
        XCTAssertEqual(merged.web.password, "it’s \"mine\"")
        try write("[audio]\ndevice = \"default\"")
        try apply()
        let again = try Configuration.load(path: path(SetupPlan.Path.daemonSettings))
        XCTAssertEqual(again.audio.output.device, "default")
        XCTAssertEqual(again.web.password, "it’s \"mine\"")
        // An own Radio Browser mirror, then back to DNS discovery with an empty list.
        try write("[catalog]\nservers = [\"http://198.18.0.2:8080\"]")
        XCTAssertEqual(try apply().applied, ["catalog_servers"])
        let mirrored = try Configuration.load(path: path(SetupPlan.Path.daemonSettings))
        XCTAssertEqual(mirrored.catalog.servers, ["http://198.18.0.2:8080"])
        XCTAssertEqual(mirrored.audio.output.device, "default")
        XCTAssertEqual(mirrored.dial.stations, 20)
        try write("[catalog]\nservers = []")
        try apply()
        XCTAssertEqual(try Configuration.load(path: path(SetupPlan.Path.daemonSettings)).catalog.servers, [])
    }

    func testDamagedDaemonSettingsAreAProblemOfTheKey() throws {
        try FileManager.default.createDirectory(atPath: path("data/wavedial"), withIntermediateDirectories: true)
        try "[audio\n".write(toFile: path(SetupPlan.Path.daemonSettings), atomically: false, encoding: .utf8)
        try write("[system]\nhostname = \"radio\"\n[audio]\ndevice = \"default\"")
        let outcome = try apply()
        XCTAssertEqual(outcome.problems.map(\.key), ["audio.device"])
        XCTAssertEqual(outcome.problems.first?.line, 4)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path(SetupPlan.Path.hostname)))
    }

    /// The command runs as root before the daemon (user wavedial) starts: what it makes in the daemon's folder must
    /// stay the daemon's. As root the folder is given to another user first (nobody), as others it is their own.
    func testFilesMadeInTheDaemonsFolderAreForItsOwnerAndGroup() throws {
        let folder = path("data/wavedial")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if geteuid() == 0 { XCTAssertEqual(chown(folder, 65534, 65534), 0) }
        let owner = try status("data/wavedial")
        try write("[location]\nlatitude = -33.92\nlongitude = 18\n[audio]\ndevice = \"default\"")
        XCTAssertEqual(try apply().applied, ["location", "audio_device"])
        let database = try status("data/wavedial/wavedial.sqlite")
        XCTAssertEqual([database.st_uid, database.st_gid], [owner.st_uid, owner.st_gid])
        let settings = try status(SetupPlan.Path.daemonSettings)
        XCTAssertEqual([settings.st_uid, settings.st_gid], [geteuid(), owner.st_gid])

        // SQLite, run by root, gives the -wal and -shm it makes the database's owner (unixOpen, unixOpenSharedMemory):
        // seen while a connection holds them.
        let open = try WavedialDatabase.open(path: databasePath)
        try open.setLocation(Coordinate(latitude: -33.9, longitude: 18.4))
        for suffix in ["-wal", "-shm"] {
            let sidecar = try status("data/wavedial/wavedial.sqlite" + suffix)
            XCTAssertEqual([sidecar.st_uid, sidecar.st_gid], [owner.st_uid, owner.st_gid], suffix)
        }
        XCTAssertEqual(try open.storedLocation(), Coordinate(latitude: -33.9, longitude: 18.4))
    }

    func testRealTZDataWhereInstalled() throws {
        guard let system = TZDataFixture.systemZoneinfo else { throw XCTSkip("no tzdata here") }
        zoneinfo = system
        try write("[wifi]\nssid = \"x\"\npassword = \"long enough\"\ncountry = \"br\"\n[system]\ntimezone = \"America/Sao_Paulo\"\n"
                  + "[location]\nplace = \"são paulo\"")
        XCTAssertEqual(try apply().applied, ["wifi", "timezone", "location"])
        let saoPaulo = try XCTUnwrap(WavedialDatabase.open(path: databasePath).storedLocation())
        XCTAssertEqual(saoPaulo.latitude, -(23 + 32.0 / 60), accuracy: 1e-9)
    }

    // MARK: Helpers

    private func write(_ text: String) throws {
        try text.write(toFile: setupFile, atomically: false, encoding: .utf8)
    }

    @discardableResult
    private func apply(file: String? = nil, root: String? = nil) throws -> SetupRun.Outcome {
        let databasePath = databasePath
        var setup = SetupRun(file: file ?? setupFile, root: root ?? self.root, zoneInfo: ZoneInfoDirectory(path: zoneinfo),
                             configuredLocation: nil) { try WavedialDatabase.open(path: databasePath) }
        setup.now = day
        return try setup.perform()
    }

    private func path(_ relative: String) -> String { root + "/" + relative }

    private func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    private func status(_ relative: String) throws -> stat {
        var info = stat()
        guard lstat(path(relative), &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return info
    }

    private func mode(_ relative: String) throws -> mode_t { try status(relative).st_mode & 0o7777 }

    /// Every file under the root and the setup file, with its inode and change time: an atomic write
    /// makes a new inode, any write a new change time.
    private func snapshot() throws -> [String: String] {
        var files: [String: String] = [:]
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root).map { path($0) } + [setupFile]
        for file in paths where !file.hasSuffix("-shm") && !file.hasSuffix("-wal") {
            var info = stat()
            XCTAssertEqual(lstat(file, &info), 0)
            files[file] = "\(info.st_ino) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
        }
        return files
    }
}
