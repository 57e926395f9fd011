import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// `fav import` reads a file from anywhere: it reads at most 1 MiB and takes at most 1000 entries, and
/// a file past either is refused whole, with an error naming the limit, the favorites untouched.
final class FavoritesImportLimitsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cli = CLIRunner()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let databasePath = directory.path("db/wavedial.sqlite")
        var known = StationFixtures.station("11111111-0000-4000-8000-0000000000c1", "Known FM")
        known.url = "http://known.example/live"
        try WavedialDatabase.open(path: databasePath).sync([known])
        let config = directory.path("config.toml")
        try "[catalog]\ndatabase = \"\(databasePath)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        cli.environment["WAVEDIAL_CONFIG"] = config
        XCTAssertEqual(try cli.run("fav", "add", "Known FM").status, 0)
    }

    override func tearDown() {
        directory.remove()
    }

    private func favorites() throws -> String { try cli.run("fav", "list", "--json").stdout }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func m3u(_ count: Int, padding: Int = 0) -> String {
        "#EXTM3U\n" + String(repeating: "#", count: padding) + "\n"
            + (0..<count).map { "#EXTINF:-1,Station \($0)\nhttp://imported.example/\($0)\n" }.joined()
    }

    private func assertRefused(_ path: String, naming limit: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try favorites()
        let result = try cli.run(["fav", "import", path], timeout: 20)
        XCTAssertEqual(result.status, 64, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(limit), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("nothing was imported"), result.stderr, file: file, line: line)
        XCTAssertEqual(try favorites(), before, "the favorites are untouched", file: file, line: line)
    }

    func testAFileOverOneMebibyteIsRefusedWhole() throws {
        // 10 entries: only the size is over.
        let text = m3u(10, padding: 1 << 20)
        XCTAssertGreaterThan(text.utf8.count, 1 << 20)
        try assertRefused(try write(text, "big.m3u"), naming: "1 MiB")
        var station = StationFixtures.station("11111111-0000-4000-8000-0000000000c2", "Padded FM")
        station.tags = String(repeating: "x", count: 1 << 20)
        let json = directory.path("big.json")
        try JSONEncoder().encode([station]).write(to: URL(fileURLWithPath: json))
        try assertRefused(json, naming: "1 MiB")
        // A file that never ends is refused as soon as it is over.
        try assertRefused("/dev/zero", naming: "1 MiB")
    }

    func testAFileOfMoreThanAThousandEntriesIsRefusedWhole() throws {
        try assertRefused(try write(m3u(1001), "many.m3u"), naming: "1000")
        let stations = (0..<1001).map { StationFixtures.station(String(format: "11111111-0000-4000-8000-%012d", $0), "Station \($0)") }
        let json = directory.path("many.json")
        try JSONEncoder().encode(stations).write(to: URL(fileURLWithPath: json))
        try assertRefused(json, naming: "1000")

        let imported = try cli.run("fav", "import", try write(m3u(1000), "thousand.m3u"))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported 1000 favorites (0 were already there)"), imported.stdout)
    }

    /// Lines that are neither comments nor URLs (a JSON file with a byte-order mark, a text file) are not
    /// taken for stream URLs.
    func testLinesThatAreNotURLsAreRefused() throws {
        try assertRefused(try write("#EXTM3U\nhttp://fine.example/live\nnot a url\n", "text.m3u"), naming: "line 3")
        let exported = try cli.run("fav", "export").stdout
        let withMark = directory.path("mark.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(exported.utf8)).write(to: URL(fileURLWithPath: withMark))
        let imported = try cli.run("fav", "import", withMark)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported 0 favorites (1 were already there)"), imported.stdout)
    }
}
