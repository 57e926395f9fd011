import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// What the CLI prints for people holds no control characters, whatever a station's record holds: a
/// catalog stored by an older wavedial (before syncs cleaned names) or written by another tool must not
/// drive the terminal of whoever lists it. (Streams' names and titles: StreamURLCommandsTests.)
final class TerminalTextTests: XCTestCase {
    func testStationsShowAndSearchPrintARawRecordWithoutControlCharacters() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let databasePath = directory.path("db/wavedial.sqlite")
        var station = StationFixtures.station("11111111-0000-4000-8000-0000000000e5", "\u{1B}[2J\u{1B}]0;pwned\u{07}Evil \u{202E}FM")
        station.url = "http://evil.example/\u{1B}[5mlive"
        station.tags = "rock\u{9B}31m"
        try WavedialDatabase.open(path: databasePath).sync([station])
        let config = directory.path("config.toml")
        try "[catalog]\ndatabase = \"\(databasePath)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = config

        let show = try cli.run("stations", "show", station.stationuuid)
        let search = try cli.run("stations", "search", "evil")
        for result in [show, search] {
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value < 0x0A || (0x0B...0x1F).contains($0.value)
                || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }, result.stdout.debugDescription)
            XCTAssertTrue(result.stdout.contains(" [2J ]0;pwned Evil FM"), result.stdout)
        }
        XCTAssertTrue(show.stdout.contains("http://evil.example/ [5mlive"), show.stdout)
        XCTAssertTrue(show.stdout.contains("rock 31m"), show.stdout)
    }
}
