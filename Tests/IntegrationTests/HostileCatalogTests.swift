import Display
import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// Radio Browser records as hostile as real data gets (longitude −273 exists there): absurd or
/// non-numeric coordinates, names of 10 kB, every script, combining marks, right-to-left text,
/// emoji, NUL and other control characters, duplicate uuids. The sync keeps the good records,
/// repairs or refuses the bad ones and counts them; search, nearby, the dial and the LCD behave.
final class HostileCatalogTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var configPath: String!
    private var socketPath: String!

    /// A name in each script, with the word the search should find it by.
    static let scripts: [(name: String, word: String)] = [
        ("Rádio Açaí Ñandú Øst Straße", "straße"), ("Ελληνικό Ραδιόφωνο", "ραδιόφωνο"), ("Радио Москва", "москва"),
        ("Ռադիո Երևան", "երևան"), ("רדיו תל אביב", "אביב"), ("راديو القاهرة", "القاهرة"), ("रेडियो दिल्ली", "दिल्ली"),
        ("রেডিও ঢাকা", "ঢাকা"), ("วิทยุ กรุงเทพ", "กรุงเทพ"), ("რადიო თბილისი", "თბილისი"), ("라디오 서울", "서울"),
        ("ラジオ 東京", "東京"), ("广播电台 北京", "北京"), ("ሬዲዮ አዲስ", "አዲስ"), ("ཀླུང་རྟ ལྷ་ས", "ལྷ་ས"),
        ("វិទ្យុ ភ្នំពេញ", "ភ្នំពេញ"), ("ᠷᠠᠳᠢᠣ ᠤᠯᠠᠭᠠᠨ", "ᠤᠯᠠᠭᠠᠨ"), ("ᏣᎳᎩ Radio", "ᏣᎳᎩ"), ("Z̸̢̛a̶l̷g̴o̵ F̶M̷", "zalgo"),
        ("Emoji 🎵📻 FM 👩‍👩‍👧 🇩🇪", "emoji"), ("Bidi \u{202E}reversed\u{202C} radio", "bidi"), ("NUL\u{0}Radio\u{7}Bell", "nul"),
        ("Zero\u{200B}Width Radio", "radio"),
    ]

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configPath = directory.path("config.toml")
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        var records: [[String: Any]] = []
        func record(_ n: Int, _ name: String, lat: Any = 52.52, lon: Any = 13.40) -> [String: Any] {
            let station = F.station(F.uuid(n), name)
            var object = try! JSONSerialization.jsonObject(with: F.radioBrowserJSON([station])) as! [[String: Any]]
            object[0]["geo_lat"] = lat
            object[0]["geo_long"] = lon
            return object[0]
        }
        for (index, script) in Self.scripts.enumerated() {
            records.append(record(100 + index, script.name, lat: 52.50 + Double(index) / 1000))
        }
        records.append(record(1, "Good Near 1"))
        records.append(record(2, "Good Near 2", lat: 52.53, lon: 13.41))
        records.append(record(3, "Longitude 273 West", lat: 52.52, lon: -273.0))
        records.append(record(4, "Latitude Billion", lat: 1e9, lon: 13.4))
        records.append(record(5, "NaN Strings", lat: "NaN", lon: "nan"))
        records.append(record(6, "Infinite", lat: "Infinity", lon: "-inf"))
        records.append(record(7, "Words For Numbers", lat: "north", lon: [1, 2]))
        records.append(record(8, String(repeating: "Long名前ラジオ ", count: 1000)))  // 12,000 characters
        records.append(record(9, "Duplicate First"))
        records.append(record(9, "Duplicate Second"))
        var upper = record(10, "Duplicate Upper")
        upper["stationuuid"] = (upper["stationuuid"] as! String).uppercased()
        records.append(upper)
        records.append(record(10, "Duplicate Lower"))
        var unusable = record(11, "No URL")
        unusable["url"] = ""
        records.append(unusable)
        let json = try JSONSerialization.data(withJSONObject: records)
        catalog = try RadioBrowserTestServer(stations: json, directory: directory)
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.audio = ["start_timeout_seconds = 2"]
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
    }

    override func tearDown() {
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    func testHostileRecordsAreKeptRepairedOrRefusedAndEverythingBehaves() throws {
        let sync = try cli.run("sync", "--json")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let summary = try XCTUnwrap(sync.json() as? [String: Any])
        XCTAssertEqual(summary["total"] as? Int, Self.scripts.count + 10, "\(summary)")
        XCTAssertEqual(summary["skipped"] as? Int, 1, "the record without a url, \(summary)")
        XCTAssertEqual(summary["duplicates"] as? Int, 2, "\(summary)")
        // Five impossible positions, the 10 kB name, the NUL/BEL name, the bidi override.
        XCTAssertEqual(summary["repaired"] as? Int, 8, "\(summary)")
        let text = try cli.run("sync")
        XCTAssertTrue(text.stdout.contains("1 unusable records skipped, 8 records repaired, 2 duplicate records"), text.stdout)

        let database = try WavedialDatabase.open(path: directory.path("db/wavedial.sqlite"))
        XCTAssertEqual(try database.integrityProblems(), [])
        // The impossible half of a position is dropped; a possible other half stays (no position without both).
        for n in 3...7 {
            let station = try XCTUnwrap(try database.station(uuid: F.uuid(n)))
            XCTAssertTrue(station.geoLat.map { $0.isFinite && abs($0) <= 90 } ?? true, "\(station.name): \(String(describing: station.geoLat))")
            XCTAssertTrue(station.geoLong.map { $0.isFinite && abs($0) <= 180 } ?? true, "\(station.name): \(String(describing: station.geoLong))")
            XCTAssertNil(station.coordinate, station.name)
        }
        XCTAssertEqual(try database.station(uuid: F.uuid(1))?.geoLat, 52.52, "good positions stay")
        XCTAssertEqual(try database.station(uuid: F.uuid(9))?.name, "Duplicate Second", "the later record wins")
        XCTAssertEqual(try database.station(uuid: F.uuid(10))?.name, "Duplicate Lower")
        let long = try XCTUnwrap(try database.station(uuid: F.uuid(8)))
        XCTAssertEqual(long.name.count, 200)
        XCTAssertTrue(long.name.hasPrefix("Long名前ラジオ Long") && long.name.hasSuffix("…"), long.name)
        let nul = try XCTUnwrap(try database.station(uuid: F.uuid(100 + Self.scripts.firstIndex { $0.word == "nul" }!)))
        XCTAssertEqual(nul.name, "NUL Radio Bell")
        let bidi = try XCTUnwrap(try database.station(uuid: F.uuid(100 + Self.scripts.firstIndex { $0.word == "bidi" }!)))
        XCTAssertEqual(bidi.name, "Bidi reversed radio")

        // Every script is found by a word of its name.
        for (index, script) in Self.scripts.enumerated() {
            let found = try cli.run("stations", "search", script.word, "--json")
            XCTAssertEqual(found.status, 0, "\(script.word): \(found.stderr)")
            let uuids = (try? found.json() as? [[String: Any]])?.compactMap { $0["stationuuid"] as? String } ?? []
            XCTAssertTrue(uuids.contains(F.uuid(100 + index)), "'\(script.word)' finds \(script.name): \(uuids)")
        }
        // Nearby and the dial: the stations with a position, none of the impossible ones.
        let near = try XCTUnwrap(try cli.run("stations", "near", "--json", "--limit", "100").json() as? [[String: Any]])
        let nearIDs = Set(near.compactMap { $0["stationuuid"] as? String })
        XCTAssertTrue(nearIDs.isDisjoint(with: (3...7).map { F.uuid($0) }), "\(nearIDs)")
        XCTAssertTrue(nearIDs.isSuperset(of: [F.uuid(1), F.uuid(2), F.uuid(100)]), "\(nearIDs)")
        XCTAssertTrue(near.allSatisfy { ($0["distance_km"] as? Double).map { $0.isFinite && $0 < 100 } ?? false }, "\(near.prefix(3))")
        let dial = try cli.run("dial", "--json")
        XCTAssertEqual(dial.status, 0, dial.stderr)
        let table = try cli.run("dial")
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertFalse(table.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control characters reach the terminal")

        // The LCD, previewed and mirrored from the daemon, shows only what its ROM has.
        for script in Self.scripts + [(long.name, "long")] {
            let preview = try cli.run("lcd", "show", "--state", "playing", "--station", script.name, "--frequency", "94.1")
            XCTAssertEqual(preview.status, 0, preview.stderr)
            let rows = preview.stdout.split(separator: "\n").dropFirst().dropLast().map { String($0.dropFirst().dropLast()) }
            XCTAssertEqual(rows.count, 2, preview.stdout)
            assertDisplayable(rows, script.name)
        }
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        defer { _ = daemon.terminate() }
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        for n in [8, 100, 105, 111, 118, 119, 121] {
            XCTAssertEqual(try cli.run("tune", F.uuid(n)).status, 0)
            for _ in 0..<3 {
                let lines = try XCTUnwrap((try cli.run("lcd", "show", "--json").json() as? [String: Any])?["lines"] as? [String])
                XCTAssertEqual(lines.map(\.count), [16, 16], "\(lines)")
                assertDisplayable(lines, F.uuid(n))
                usleep(150_000)
            }
        }
        XCTAssertTrue(daemon.process.isRunning)
    }

    /// Every cell is a character of the configured ROM (A00) or one of the layouts' glyphs.
    private func assertDisplayable(_ rows: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let glyphs = Set("♥▶‖⧗✗▟♪┼▏▎▌▊█")
        for row in rows {
            let foreign = row.filter { CharacterROM.a00.code(for: $0) == nil && !glyphs.contains($0) }
            XCTAssertEqual(foreign, "", "\(what): \(rows)", file: file, line: line)
        }
    }
}
