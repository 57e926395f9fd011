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

final class ConfigurationArrayTests: XCTestCase {
    func testABraceWhereAnArrayExpectsAValueIsRefused() {
        // Found by fuzz-config: toml++ asserted, and so aborted the CLI and the daemon, on `servers = [}`.
        for (text, line) in [("[catalog]\nservers = [}\n", 2), ("[catalog]\nservers = [\"http://a\", }\n", 2),
                             ("[catalog]\nservers = [ # none\n\n  }\n", 4), ("[dial]\nx = {a = [}]}\n", 2),
                             ("[dial]\nx = [[1], [}]]\n", 2)] {
            XCTAssertThrowsError(try Configuration.parse(text), text) { error in
                XCTAssertEqual((error as! ConfigurationError).problems.first?.line, line, text)
                XCTAssertTrue("\(error)".contains("not '}'"), "\(error)")
            }
        }
    }

    func testBracesInStringsCommentsAndInlineTablesAreFine() throws {
        let text = """
            [catalog]
            servers = [ # {}
              "http://a/}", 'https://b/}',
            ]
            [hardware.buttons]
            repeat = ["back",
                      "forward"]
            """
        let configuration = try Configuration.parse(text)
        XCTAssertEqual(configuration.catalog.servers, ["http://a/}", "https://b/}"])
        // An inline table's braces close it; an unknown key and other invalid arrays are reported as
        // such, by the configuration and by toml++.
        for other in ["[dial]\nx = { a = [1], b = \"}\" }\n", "[catalog]\nservers = [1 }\n"] {
            XCTAssertThrowsError(try Configuration.parse(other), other) { error in
                XCTAssertFalse("\(error)".contains("not '}'"), "\(error)")
            }
        }
    }
}
