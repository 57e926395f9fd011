import Foundation
import WavedialTestSupport
import XCTest

/// `wavedial setup apply`, the built binary, as the image's boot service runs it.
final class SetupCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var zoneinfo: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "setup-cli")
        zoneinfo = try TZDataFixture.make(in: directory.url)
        try "[catalog]\ndatabase = \"\(directory.path("db/wavedial.sqlite"))\"\n"
            .write(toFile: directory.path("config.toml"), atomically: false, encoding: .utf8)
    }

    override func tearDown() {
        directory.remove()
    }

    private func apply(_ text: String) throws -> CLIRunner.Result {
        try text.write(toFile: directory.path("wavedial-setup.toml"), atomically: false, encoding: .utf8)
        return try CLIRunner().run("setup", "apply", "--config", directory.path("config.toml"), "--root", directory.path("root"),
                                   "--file", directory.path("wavedial-setup.toml"), "--zoneinfo", zoneinfo, "--json")
    }

    func testABadFileExits65WithItsProblemsAndTheDisplayLine() throws {
        let result = try apply("[wifi]\nssid = \"Home\"\npassword = \"short\"\n[system]\nhostname = \"radio\"\ncolour = \"red\"\n")
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stderrLines, [
            "wavedial-setup.toml line 3: [wifi] password: must be 8 to 63 characters long, or 64 hex digits (this one has 5)",
            "wavedial-setup.toml line 6: [system] colour: is not a known setting",
        ])
        let json = try XCTUnwrap(result.json() as? [String: Any])
        XCTAssertEqual(json["applied"] as? [String], [])
        let problems = try XCTUnwrap(json["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.first?["key"] as? String, "wifi.password")
        XCTAssertEqual(problems.first?["line"] as? Int, 3)
        XCTAssertEqual(problems.count, 2)
        XCTAssertEqual(try String(contentsOfFile: directory.path("root/run/wavedial-setup/problem"), encoding: .utf8),
                       "Setup file line 3: bad Wi-Fi password\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("root/data")))
    }

    func testAGoodFileIsAppliedThenNothingIsLeft() throws {
        let result = try apply("[system]\nhostname = \"radio\"\n[location]\nlatitude = 48.2\nlongitude = 16.37\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try XCTUnwrap(result.json() as? [String: Any])["applied"] as? [String], ["hostname", "location"])
        XCTAssertEqual(try String(contentsOfFile: directory.path("root/data/wavedial-setup/hostname"), encoding: .utf8), "radio\n")
        let shown = try CLIRunner().run("location", "show", "--config", directory.path("config.toml"), "--json")
        XCTAssertEqual(try XCTUnwrap(shown.json() as? [String: Any])["latitude"] as? Double, 48.2)

        let again = try CLIRunner().run("setup", "apply", "--config", directory.path("config.toml"), "--root", directory.path("root"),
                                        "--file", directory.path("wavedial-setup.toml"), "--zoneinfo", zoneinfo)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
    }

    func testAFileThatIsNotUTF8HasAProblemWithoutALine() throws {
        try Data([0x5B, 0x77, 0x69, 0x66, 0x69, 0x5D, 0x0A, 0xFF]).write(to: directory.url.appendingPathComponent("latin1.toml"))
        let result = try CLIRunner().run("setup", "apply", "--root", directory.path("root"), "--file", directory.path("latin1.toml"),
                                         "--json")
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stderrLines, ["latin1.toml: is not UTF-8 text: save it as UTF-8"])
        let problem = try XCTUnwrap((result.json() as? [String: Any])?["problems"] as? [[String: Any]]).first
        XCTAssertTrue(problem?["line"] is NSNull)
        XCTAssertEqual(try String(contentsOfFile: directory.path("root/run/wavedial-setup/problem"), encoding: .utf8),
                       "Setup file: not valid TOML\n")
    }

    func testAMissingFileIsNothingToDo() throws {
        let result = try CLIRunner().run("setup", "apply", "--root", directory.path("root"), "--file", directory.path("absent.toml"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("root")))
    }
}
