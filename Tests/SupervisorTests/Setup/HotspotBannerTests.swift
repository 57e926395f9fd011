import ApplianceSetup
import XCTest

@testable import Supervisor

/// The display's walk-through while the setup access point is up: each step fits one row of a 16-column LCD,
/// a long value goes on over several steps, and once a network is sent the display says it is joining it.
final class HotspotBannerTests: XCTestCase {
    private let hotspot = SetupHotspot(ssid: "Wavedial-3F2A", password: "k7p2m9qx", address: "10.42.0.1")

    func testTheWalkThroughNamesTheNetworkItsPasswordAndThePage() {
        XCTAssertEqual(HotspotBanner.steps(for: hotspot, joining: nil),
                       ["Join Wi-Fi", "Wavedial-3F2A", "Password", "k7p2m9qx", "Open", "http://10.42.0.1"])
    }

    func testJoiningANetworkIsShownUntilTheAccessPointGoes() {
        XCTAssertEqual(HotspotBanner.steps(for: hotspot, joining: "HomeNet"), ["Connecting to", "HomeNet..."])
        XCTAssertEqual(HotspotBanner.steps(for: hotspot, joining: "The Neighbours' Network 5GHz"),
                       ["Connecting to", "The Neighbours' ", "Network 5GHz..."])
    }

    func testLongValuesGoOnOverSeveralStepsThatEachFitARow() {
        let long = SetupHotspot(ssid: "Wavedial-Setup-Of-The-Kitchen-XY", password: String(repeating: "p", count: 40),
                                address: "192.168.100.100")
        let steps = HotspotBanner.steps(for: long, joining: nil)
        XCTAssertEqual(steps, ["Join Wi-Fi", "Wavedial-Setup-O", "f-The-Kitchen-XY", "Password", String(repeating: "p", count: 16),
                               String(repeating: "p", count: 16), String(repeating: "p", count: 8), "Open in browser", "http://",
                               "192.168.100.100"])
        XCTAssertTrue(steps.allSatisfy { $0.count <= HotspotBanner.width })
    }

    func testTheHotspotFileIsReadWhole() {
        XCTAssertEqual(SetupHotspot(text: "ssid = \"Wavedial-3F2A\"\npassword = \"k7p2m9qx\"\naddress = \"10.42.0.1\"\n"), hotspot)
        XCTAssertNil(SetupHotspot(text: "ssid = \"Wavedial-3F2A\"\npassword = \"k7p2m9qx\"\n"))
        XCTAssertNil(SetupHotspot(text: "ssid = \"W\"\npassword = \"k7p2m9qx\"\naddress = \"10.42.0.256\"\n"))
        XCTAssertNil(SetupHotspot(text: "not toml ["))
        XCTAssertEqual(SetupHotspot(text: "ssid = \"Wave\\u001b[2Jdial\"\npassword = \"k7p2m9qx\"\naddress = \"10.42.0.1\"\n")?.ssid,
                       "Wave [2Jdial")
    }
}
