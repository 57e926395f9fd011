import WavedialTestSupport
import XCTest

@testable import Supervisor

final class SetupProblemBannerTests: XCTestCase {
    func testTheFirstLineMadePrintableAndBounded() throws {
        let directory = try TemporaryDirectory(prefix: "setup-banner")
        defer { directory.remove() }
        let file = directory.path("problem")
        XCTAssertNil(SetupProblemBanner.read(at: file), "no file, no banner")
        try "Setup file line 12: bad Wi-Fi password\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(SetupProblemBanner.read(at: file), "Setup file line 12: bad Wi-Fi password")
        try "\u{1B}[2J\u{202E}Setup file: \(String(repeating: "x", count: 300))\nsecond line".write(toFile: file, atomically: false, encoding: .utf8)
        let shown = try XCTUnwrap(SetupProblemBanner.read(at: file))
        XCTAssertEqual(shown.count, 40)
        XCTAssertTrue(shown.hasPrefix("[2JSetup file: x"), shown)
        try " \n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertNil(SetupProblemBanner.read(at: file))
    }
}
