import CurlSupport
import WavedialConfig
import XCTest

/// `[audio] allowed_addresses`: the administrator's exceptions to the stations' address policy.
final class AllowedAddressesConfigTests: XCTestCase {
    func testAddressesAndRangesAreRead() throws {
        let configuration = try Configuration.parse("[audio]\nallowed_addresses = [\"127.0.0.1\", \"10.0.0.0/8\", \"fd00::/8\"]")
        XCTAssertEqual(configuration.audio.source.allowedAddresses.map(\.description), ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"])
        XCTAssertEqual(try Configuration.parse("").audio.source.allowedAddresses, [], "none by default")
    }

    func testWhatIsNotAnAddressIsReportedByKeyAndLine() {
        for value in ["localhost", "10.0.0.0/33", "http://10.0.0.1/", ""] {
            XCTAssertThrowsError(try Configuration.parse("[audio]\nallowed_addresses = [\"\(value)\"]", source: "test.toml")) { error in
                XCTAssertTrue("\(error)".contains("line 2: 'audio.allowed_addresses' must hold addresses or ranges"), "\(error)")
            }
        }
    }
}
