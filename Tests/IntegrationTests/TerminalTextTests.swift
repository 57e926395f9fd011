import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// What the CLI prints holds no control or bidi characters, whatever a station sends or a record holds:
/// names and titles from streams (the daemon's `status` and song history here; check-url and play-url in
/// StreamURLCommandsTests), an imported favorites file, and rows stored by an older wavedial (before syncs
/// and imports cleaned them) or by another tool must not drive the terminal of whoever lists them.
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
            XCTAssertEqual(result.stdout.unprintableScalars, [], result.stdout.debugDescription)
            XCTAssertTrue(result.stdout.contains(" [2J ]0;pwned Evil FM"), result.stdout)
        }
        XCTAssertTrue(show.stdout.contains("http://evil.example/ [5mlive"), show.stdout)
        XCTAssertTrue(show.stdout.contains("rock 31m"), show.stdout)
    }

    /// Rows as an older wavedial (or another tool) may have left them: a favorite whose snapshot, and
    /// history rows whose names and titles, hold ESC sequences, C1 controls and bidi overrides. Every
    /// command that shows them, in text and in JSON, prints them clean.
    func testRowsStoredRawByAnOlderVersionPrintWithoutControlCharacters() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let databasePath = directory.path("db/wavedial.sqlite")
        try WavedialDatabase.open(path: databasePath).sync([StationFixtures.station("11111111-0000-4000-8000-0000000000e1", "Calm FM")])
        let uuid = "11111111-0000-4000-8000-0000000000e6"
        var station = StationFixtures.station(uuid, "\u{1B}]0;pwned\u{07}Evil \u{202E}FM\u{9B}31m\u{200F}")
        station.url = "http://evil.example/\u{1B}[5mlive"
        station.tags = "rock\u{85}"
        let snapshot = String(decoding: try JSONEncoder().encode(station), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
        let hostile = "char(27) || ']0;pwned' || char(7) || 'Evil ' || char(8238) || 'FM' || char(155) || '31m' || char(1564)"
        try sqlite(databasePath, """
            INSERT INTO favorite (stationuuid, position, added_at, snapshot) VALUES ('\(uuid)', 1, '2024-01-01 00:00:00.000', '\(snapshot)');
            INSERT INTO playHistory (stationuuid, name, played_at) VALUES ('\(uuid)', \(hostile), '2024-01-01 00:00:00.000');
            INSERT INTO songHistory (stationuuid, station_name, title, heard_at)
                VALUES ('\(uuid)', \(hostile), char(27) || '[2JSong' || char(8207) || ' Title' || char(155) || '1m', '2024-01-01 00:00:00.000');
            """)
        let config = directory.path("config.toml")
        try "[catalog]\ndatabase = \"\(databasePath)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = config

        let commands = [["fav", "list"], ["fav", "list", "--json"], ["fav", "export"], ["fav", "export", "--m3u"],
                        ["dial", "--favorites"], ["history"], ["history", "--json"], ["history", "--tracks"],
                        ["history", "--tracks", "--json"], ["fav", "move", uuid, "1"], ["fav", "remove", uuid]]
        for command in commands {
            let result = try cli.run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout.unprintableScalars, [], "\(command): \(result.stdout.debugDescription)")
            XCTAssertEqual(result.stderr.unprintableScalars, [], "\(command): \(result.stderr.debugDescription)")
            XCTAssertTrue(result.stdout.contains("pwned") || result.stdout.contains("Song"), "\(command): \(result.stdout)")
        }
        // The same row named in an error message.
        let missing = try cli.run("fav", "remove", uuid)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderr.unprintableScalars, [], missing.stderr.debugDescription)
    }

    /// A favorites file (JSON as `fav export` writes it, or M3U) with escape sequences, C1 controls and
    /// bidi characters in its names, URLs and other fields: what is imported is stored clean.
    func testImportedFavoritesAreStoredAndListedWithoutControlCharacters() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let databasePath = directory.path("db/wavedial.sqlite")
        try WavedialDatabase.open(path: databasePath).sync([StationFixtures.station("11111111-0000-4000-8000-0000000000e1", "Calm FM")])
        let config = directory.path("config.toml")
        try "[catalog]\ndatabase = \"\(databasePath)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = config

        var station = StationFixtures.station("11111111-0000-4000-8000-0000000000e7", "\u{1B}]0;pwned\u{07}Evil \u{202E}FM\u{9B}31m")
        station.url = "http://evil.example/\u{1B}[5mlive"
        station.tags = "rock\u{85}\u{2066}x\u{2069}"
        station.country = "\u{200E}Germany"
        let json = directory.path("favorites.json")
        try JSONEncoder().encode([station]).write(to: URL(fileURLWithPath: json))
        let m3u = directory.path("favorites.m3u")
        try "#EXTM3U\n#EXTINF:-1,\u{1B}[2JBad\u{200F} \u{9B}1mName\u{061C}\nhttp://m3u.example/\u{1B}[5mlive\n"
            .write(toFile: m3u, atomically: true, encoding: .utf8)
        for file in [json, m3u] {
            let imported = try cli.run("fav", "import", file)
            XCTAssertEqual(imported.status, 0, imported.stderr)
            XCTAssertTrue(imported.stdout.contains("imported 1 favorites"), imported.stdout)
        }

        let listed = try cli.run("fav", "list", "--json")
        XCTAssertEqual(listed.stdout.unprintableScalars, [], listed.stdout.debugDescription)
        let favorites = try XCTUnwrap(try listed.json() as? [[String: Any]])
        XCTAssertEqual(favorites.count, 2)
        for favorite in favorites {
            for (key, value) in favorite {
                guard let text = value as? String else { continue }
                XCTAssertEqual(text.unprintableScalars, [], "\(key): \(text.debugDescription) was stored")
            }
        }
        XCTAssertEqual(favorites.map { $0["name"] as? String }, ["]0;pwned Evil FM 31m", "[2JBad  1mName"])
        XCTAssertEqual(favorites.map { $0["url"] as? String }, ["http://evil.example/ [5mlive", "http://m3u.example/ [5mlive"])
        let text = try cli.run("fav", "list")
        XCTAssertEqual(text.stdout.unprintableScalars, [], text.stdout.debugDescription)
        XCTAssertTrue(text.stdout.contains("]0;pwned Evil FM 31m"), text.stdout)
    }

    /// A station whose catalog name, `icy-name` and ICY titles carry escape sequences raw and as HTML entities
    /// (`&#27;`, `&#x1b;`, `&#x9b;`), C1 controls and bidi characters, played by the daemon: `status` and
    /// the song history show its name and title clean, in text and in JSON.
    func testTheDaemonShowsAHostileStationsNameAndTitleWithoutControlCharacters() throws {
        let serverDirectory = try TemporaryDirectory()
        defer { serverDirectory.remove() }
        let server = try ICYStationServer(name: Self.hostileStreamName, title: Self.hostileTitle, directory: serverDirectory)
        defer { server.stop() }
        let uuid = "11111111-0000-4000-8000-0000000000e8"
        let radio = try RadioUnderTest(stations: [.init(uuid: uuid, name: "\u{1B}]0;pwned\u{07}Evil \u{202E}\u{200F}FM", url: server.url)])
        defer { radio.stop() }
        try radio.startDaemon()
        radio.tune(uuid)
        radio.waitFor("the title") { (radio.status()["title"] as? String)?.contains("Song") == true }

        for command in [["status"], ["status", "--json"], ["history"], ["history", "--json"], ["history", "--tracks"],
                        ["history", "--tracks", "--json"]] {
            let result = try radio.cli.run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout.unprintableScalars, [], "\(command): \(result.stdout.debugDescription)")
            XCTAssertTrue(result.stdout.contains("pwned"), "\(command): \(result.stdout)")
        }
        let title = try XCTUnwrap(radio.status()["title"] as? String)
        XCTAssertEqual(title.unprintableScalars, [], title.debugDescription)
        XCTAssertTrue(title.contains("]0;pwned") && title.hasSuffix("Song"), title.debugDescription)
    }

    /// An ICY title with ESC raw and as every entity form, a BEL as an entity, C1 and bidi characters.
    static let hostileTitle = "\u{1B}[2J&#27;]0;pwned&#7;&#x1b;[31mRed&#x9B;1m \u{9B}2m\u{202E}\u{200F}\u{061C}\u{2066}Song\u{2069}\u{200E}"
    /// An `icy-name` with the same.
    static let hostileStreamName = "\u{1B}]0;pwned\u{07}Evil &#27;[5m\u{202E}\u{200F}FM&#x9b;"

    private func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "sqlite3 \(sql)")
    }
}

extension String {
    /// The scalars a terminal would act on or that reorder text, as `U+XXXX`: C0 controls but the line feed
    /// (lines are what the CLI prints), DEL, C1 controls and Unicode's Bidi_Control set. Written out here
    /// rather than taken from the code under test.
    var unprintableScalars: [String] {
        unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: return false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }
}
