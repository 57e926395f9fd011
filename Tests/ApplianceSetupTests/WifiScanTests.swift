import ApplianceSetup
import XCTest

/// `iw dev wlan0 scan` output, written by hand in `iw`'s format, read as the setup page's list of networks:
/// one a name, strongest first, with the security it asks for; hostile names (escapes, control bytes, too
/// long, hidden, repeated) bounded and made printable.
final class WifiScanTests: XCTestCase {
    /// One BSS block as `iw` 6.x prints it; `ssidField` is the text after `SSID:` (with its one space).
    private static func block(bssid: String, ssid ssidField: String?, signal: String? = "-52.00 dBm", rsn: [String]? = ["PSK"],
                              wpa: Bool = false, privacy: Bool = true) -> String {
        var lines = ["BSS \(bssid)(on wlan0)", "\tlast seen: 1234.567s [boottime]", "\tTSF: 123456789 usec (0d, 00:02:03)",
                     "\tfreq: 2437", "\tbeacon interval: 100 TUs",
                     "\tcapability: ESS \(privacy ? "Privacy " : "")ShortSlotTime (0x0411)"]
        if let signal { lines.append("\tsignal: \(signal)") }
        lines += ["\tlast seen: 20 ms ago", "\tInformation elements from Probe Response frame:"]
        if let ssidField { lines.append("\tSSID:\(ssidField)") }
        lines += ["\tSupported rates: 1.0* 2.0* 5.5* 11.0* 18.0 24.0 36.0 54.0 ", "\tDS Parameter set: channel 6"]
        if let rsn {
            lines += ["\tRSN:\t * Version: 1", "\t\t * Group cipher: CCMP", "\t\t * Pairwise ciphers: CCMP",
                      "\t\t * Authentication suites: \(rsn.joined(separator: " "))", "\t\t * Capabilities: 16-PTKSA-RC 1-GTKSA-RC (0x000c)"]
        }
        if wpa {
            lines += ["\tWPA:\t * Version: 1", "\t\t * Group cipher: TKIP", "\t\t * Pairwise ciphers: TKIP",
                      "\t\t * Authentication suites: PSK"]
        }
        lines += ["\tExtended capabilities:", "\t\t * Extended Channel Switching", "\tWMM:\t * Parameter version 1"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func networks(_ blocks: String...) -> [WifiScan.Network] {
        WifiScan.networks(inScan: Array(blocks.joined().utf8))
    }

    func testNetworksAreListedStrongestFirstWithTheirSecurity() {
        let list = networks(
            Self.block(bssid: "aa:bb:cc:00:00:01", ssid: " Cafe Guest", signal: "-81.00 dBm", rsn: nil, privacy: false),
            Self.block(bssid: "aa:bb:cc:00:00:02", ssid: " HomeNet", signal: "-48.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:03", ssid: " Neighbour WPA3", signal: "-67.00 dBm", rsn: ["SAE"]),
            Self.block(bssid: "aa:bb:cc:00:00:04", ssid: " Old Router", signal: "-70.00 dBm", rsn: nil, wpa: true),
            Self.block(bssid: "aa:bb:cc:00:00:05", ssid: " Transition", signal: "-60.00 dBm", rsn: ["PSK", "SAE"]),
            Self.block(bssid: "aa:bb:cc:00:00:06", ssid: " Museum", signal: "-75.00 dBm", rsn: nil, privacy: true))
        XCTAssertEqual(list, [
            WifiScan.Network(ssid: "HomeNet", signalDBm: -48, security: .wpa2),
            WifiScan.Network(ssid: "Transition", signalDBm: -60, security: .wpa2),
            WifiScan.Network(ssid: "Neighbour WPA3", signalDBm: -67, security: .wpa3),
            WifiScan.Network(ssid: "Old Router", signalDBm: -70, security: .wpa),
            WifiScan.Network(ssid: "Museum", signalDBm: -75, security: .wep),
            WifiScan.Network(ssid: "Cafe Guest", signalDBm: -81, security: .open),
        ])
        XCTAssertFalse(list[5].needsPassword)
        XCTAssertTrue(list[0].needsPassword)
    }

    func testAccessPointsOfOneNameAreOneNetworkAtTheStrongestSignal() {
        let list = networks(
            Self.block(bssid: "aa:bb:cc:00:00:01", ssid: " HomeNet", signal: "-71.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:02", ssid: " HomeNet", signal: "-44.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:03", ssid: " HomeNet", signal: nil))
        XCTAssertEqual(list, [WifiScan.Network(ssid: "HomeNet", signalDBm: -44, security: .wpa2)])
    }

    func testIwEscapesAreUndoneAndControlCharactersNeverShown() {
        let list = networks(
            // UTF-8 outside ASCII, a backslash and edge spaces are escaped by iw.
            Self.block(bssid: "aa:bb:cc:00:00:01", ssid: #" Caf\xc3\xa9 \x5cNet\x20"#, signal: "-50.00 dBm"),
            // An ESC sequence and a line break in the name.
            Self.block(bssid: "aa:bb:cc:00:00:02", ssid: #" Evil\x1b[2J\x0aName"#, signal: "-51.00 dBm"),
            // A malformed escape is taken as written.
            Self.block(bssid: "aa:bb:cc:00:00:03", ssid: #" Back\xZZslash\x4"#, signal: "-52.00 dBm"))
        XCTAssertEqual(list.map(\.ssid), ["Café \\Net ", "Evil [2J Name", #"Back\xZZslash\x4"#])
        for network in list {
            XCTAssertFalse(network.ssid.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }

    func testHiddenTooLongAndMissingNamesAreLeftOut() {
        let list = networks(
            Self.block(bssid: "aa:bb:cc:00:00:01", ssid: " ", signal: "-40.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:02", ssid: #" \x00\x00\x00\x00\x00\x00"#, signal: "-41.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:03", ssid: nil, signal: "-42.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:04", ssid: " " + String(repeating: "x", count: 33), signal: "-43.00 dBm"),
            // 32 bytes once unescaped (16 × é), though 128 characters as iw writes them.
            Self.block(bssid: "aa:bb:cc:00:00:05", ssid: " " + String(repeating: #"\xc3\xa9"#, count: 16), signal: "-44.00 dBm"),
            Self.block(bssid: "aa:bb:cc:00:00:06", ssid: " Fine", signal: "not a number dBm"))
        XCTAssertEqual(list, [WifiScan.Network(ssid: String(repeating: "é", count: 16), signalDBm: -44, security: .wpa2),
                              WifiScan.Network(ssid: "Fine", signalDBm: nil, security: .wpa2)])
    }

    func testTheListAndTheFileAreBounded() throws {
        let many = (0..<200).map { Self.block(bssid: "aa:bb:cc:00:00:01", ssid: " Net \($0)", signal: "-\(30 + $0 % 60).00 dBm") }.joined()
        let list = WifiScan.networks(inScan: Array(many.utf8))
        XCTAssertEqual(list.count, WifiScan.maximumNetworks)
        XCTAssertEqual(list.first?.signalDBm, -30)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wifi-scan-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A network past the first 256 KiB is not read.
        let padding = String(repeating: "\tVendor specific: OUI 00:50:f2, data: 04 10 4a 00 01 10 10 44 00 01 02\n", count: 5000)
        let file = directory.appendingPathComponent("wifi-scan.txt")
        try (Self.block(bssid: "aa:bb:cc:00:00:01", ssid: " First") + padding
             + Self.block(bssid: "aa:bb:cc:00:00:02", ssid: " Late")).write(to: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(WifiScan.networks(inFile: file.path).map(\.ssid), ["First"])
        XCTAssertEqual(WifiScan.networks(inFile: directory.appendingPathComponent("missing").path), [])
    }

    func testGarbageIsNoNetwork() {
        XCTAssertEqual(WifiScan.networks(inScan: Array("SSID: Orphan\nsignal: -20.00 dBm\n".utf8)), [])
        XCTAssertEqual(WifiScan.networks(inScan: [0xFF, 0x00, 0x0A, 0x42, 0x53, 0x53, 0x20, 0x0A, 0x09, 0x53, 0x53, 0x49, 0x44, 0x3A]), [])
    }

    func testTheJSONSaysWhetherAPasswordIsNeeded() throws {
        let json = try JSONEncoder().encode([WifiScan.Network(ssid: "HomeNet", signalDBm: -48, security: .wpa2)])
        let text = String(decoding: json, as: UTF8.self)
        XCTAssertTrue(text.contains(#""needs_password":true"#), text)
        XCTAssertTrue(text.contains(#""signal_dbm":-48"#), text)
    }
}
