import Foundation
import WavedialTestSupport
import XCTest

/// Bad arguments and bad configs: one clear line on stderr, a meaningful exit code, no trace.
final class ErrorReportingTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cli = CLIRunner()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() { directory.remove() }

    private func config(_ text: String) throws -> String {
        let path = directory.path("config-\(UUID().uuidString).toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testBadArguments() throws {
        for arguments in [["stations", "near", "--limit", "abc"], ["stations", "near", "--limit", "0"], ["frobnicate"],
                          ["fav", "move", "x"], ["stations", "search"], ["location", "set", "1"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderrLines.count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("wavedial: "), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
    }

    /// A negative number after a numeric option is its value, checked like any other: not an
    /// unknown option and not a "missing value".
    func testANegativeNumberIsTheOptionsValue() throws {
        for (arguments, message) in [
            (["stations", "near", "--limit", "-5"], "wavedial: --limit must be at least 1"),
            (["history", "--limit", "-1"], "wavedial: --limit must be at least 1"),
            (["play-url", "http://127.0.0.1:9/x", "--seconds", "-1"], "wavedial: --seconds must be positive"),
            (["check-url", "--timeout", "-2", "http://127.0.0.1:9/x"], "wavedial: --timeout must be positive"),
            (["lcd", "show", "--state", "playing", "--volume", "-5"], "wavedial: --volume must be from 0 to 100"),
            (["lcd", "show", "--state", "playing", "--frequency", "-98.5"], "wavedial: --frequency must be a positive number of MHz"),
        ] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, message + "\n", "\(arguments)")
        }
    }

    func testABadEdgesFileNamesItsLineAndSendsNothing() throws {
        let file = directory.path("edges.txt")
        try "# a knob turned\n0 encoder.a 0\n250000 encoder.b two\n".write(toFile: file, atomically: true, encoding: .utf8)
        let socket = directory.path("none.sock")
        let result = try cli.run("--config", try config("[control]\nsocket = \"\(socket)\"\n"), "sim", "edges", file)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderrLines, ["wavedial: \(file) line 3: expected 'NANOSECONDS LINE 0|1', not '250000 encoder.b two'"])
    }

    func testMissingConfig() throws {
        let path = directory.path("absent.toml")
        let result = try cli.run("--config", path, "dial")
        XCTAssertEqual(result.status, 78)
        XCTAssertEqual(result.stderrLines, ["wavedial: config \(path): no such file"])
    }

    func testBrokenConfigNamesTheKeyAndLine() throws {
        let path = try config("[dial]\nstations = 60\nstepsize = 0.1\n[catalog]\nservers = 5\n")
        var runner = cli
        runner.environment["WAVEDIAL_CONFIG"] = path
        let result = try runner.run("stations", "near")
        XCTAssertEqual(result.status, 78)
        XCTAssertEqual(result.stderrLines, [
            "wavedial: config \(path): line 5: 'catalog.servers' must be a list of strings; line 3: 'dial.stepsize' is not a known setting",
        ])
        let syntax = try config("[dial\nstations = 60\n")
        let broken = try cli.run("--config", syntax, "dial")
        XCTAssertEqual(broken.status, 78)
        XCTAssertEqual(broken.stderrLines.count, 1)
        XCTAssertTrue(broken.stderr.contains("line 1"), broken.stderr)
    }

    func testNoLocationIsExplained() throws {
        let path = try config("[catalog]\ndatabase = \"\(directory.path("db.sqlite"))\"\n")
        let result = try cli.run("--config", path, "stations", "near")
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(result.stderr.hasPrefix("wavedial: no location set"), result.stderr)
    }

    func testHelpStillWorks() throws {
        let result = try cli.run("--help")
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("SUBCOMMANDS"), result.stdout)
        XCTAssertTrue(result.stdout.contains("sync"))
    }
}
