import WavedialConfig
import WavedialCore
import XCTest

/// What reaches the TOML parser: text it can take without aborting.
final class ConfigurationTextTests: XCTestCase {
    func testNonASCIIOutsideStringsIsRefusedBeforeTheTOMLParserSeesIt() {
        // Found by fuzz-config: toml++ asserted, and so aborted the process, on this table header.
        let crash = "[\u{197}\u{FFFD}" + String(repeating: "X", count: 90) + "l]\nstations = \"manwavedi\nx = 1\n"
        XCTAssertThrowsError(try Configuration.parse(crash)) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.first?.line, 1)
            XCTAssertTrue("\(error)".contains("'\u{197}'"), "\(error)")
        }
        XCTAssertThrowsError(try Configuration.parse("# Café is fine here\n[dial]\nstations = 6\u{0669}\n")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.first?.line, 3)
        }
    }

    func testNonASCIIInStringsAndCommentsIsFine() throws {
        let text = #"""
            # Zürich, Москва
            [catalog]
            database = "/var/lib/wavedial/café.sqlite"
            servers = ['https://mirror.例え.jp', """https://b.example/ü\
            """]
            [display]
            bus = '''/dev/i2c-1 ü'''
            [location]
            country = "DE"  # Deutschland, Österreich
            latitude = x
            """#
        // The last line is wrong on purpose: its line number proves the lines were counted right.
        XCTAssertThrowsError(try Configuration.parse(text)) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.first?.line, 10, "\(error)")
        }
        let valid = text.replacingOccurrences(of: "latitude = x", with: "latitude = 1\nlongitude = 2")
        let configuration = try Configuration.parse(valid)
        XCTAssertEqual(configuration.catalog.database, "/var/lib/wavedial/café.sqlite")
        XCTAssertEqual(configuration.catalog.servers, ["https://mirror.例え.jp", "https://b.example/ü"])
        XCTAssertEqual(configuration.display.bus, "/dev/i2c-1 ü")
    }
}

final class ConfigurationHeaderTests: XCTestCase {
    func testATableNameMustStartLikeAKey() {
        // Found by fuzz-config: toml++ asserted on `[%ial]`.
        XCTAssertThrowsError(try Configuration.parse("[dial]\nstations = 5\n[%ial]\n")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.first?.line, 3)
            XCTAssertTrue("\(error)".contains("a table name starts with"), "\(error)")
        }
        XCTAssertThrowsError(try Configuration.parse("[[ =x]]\n"))
        // Arrays of arrays in values are values, not headers.
        XCTAssertNoThrow(try Configuration.parse("[catalog]\nservers = [\n  \"http://a\",\n]\n"))
        XCTAssertNoThrow(try Configuration.parse("[ \"dial\" ]\nstations = 5\n"))
    }
}
