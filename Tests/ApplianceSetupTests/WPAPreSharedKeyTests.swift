import ApplianceSetup
import XCTest

final class WPAPreSharedKeyTests: XCTestCase {
    /// IEEE 802.11i-2004, annex H.4.1: passphrase "password", SSID "IEEE".
    func testIEEE80211iVector() {
        let key = WPAPreSharedKey.derive(passphrase: "password", ssid: Array("IEEE".utf8))
        XCTAssertEqual(key.map { String(format: "%02x", $0) }.joined(),
                       "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e")
    }

    func testSupplicantFileRoundTrips() {
        let config = WPASupplicantConfig(ssid: [0x22, 0x0A, 0xFF], psk: [UInt8](repeating: 0x5A, count: 32), country: "DE")
        XCTAssertTrue(config.text.contains("\tssid=220aff\n"))
        XCTAssertTrue(config.text.contains("\tpsk=\(String(repeating: "5a", count: 32))\n"))
        XCTAssertEqual(WPASupplicantConfig(text: config.text), config)
    }
}
