import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// `wavedial` end to end: a loopback Radio Browser, a config file, the real binary.
final class CatalogCommandsTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var server: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var configPath: String!

    private let stations: [Station] = {
        var list = [
            F.station("11111111-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.53, lon: 13.41, tags: "rock", language: "german", votes: 90),
            F.station("11111111-0000-4000-8000-000000000002", "Jazz Café Berlin", lat: 52.50, lon: 13.30, tags: "jazz", language: "german", votes: 50),
            F.station("11111111-0000-4000-8000-000000000003", "Potsdam Klassik", lat: 52.39, lon: 13.06, tags: "classical", votes: 10),
            F.station("11111111-0000-4000-8000-000000000004", "Hamburg Welle 90,3", lat: 53.55, lon: 9.99, tags: "pop", votes: 5),
            F.station("11111111-0000-4000-8000-000000000005", "WMA Berlin", lat: 52.52, lon: 13.40, codec: "WMA", votes: 99),
            F.station("11111111-0000-4000-8000-000000000006", "Landfunk ohne Ort", country: "DE", tags: "folk", votes: 3),
            F.station("11111111-0000-4000-8000-000000000007", "Paris Jazz", lat: 48.85, lon: 2.35, country: "FR", tags: "jazz", votes: 70),
        ]
        list[1].url = "http://jazz.example/live.mp3"
        return list
    }()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        server = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        configPath = directory.path("config.toml")
        try writeConfig(servers: [server.baseURL])
        cli.environment["WAVEDIAL_CONFIG"] = configPath
    }

    override func tearDown() {
        server.stop()
        directory.remove()
    }

    private func writeConfig(servers: [String], extra: String = "") throws {
        let list = servers.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
            [location]
            latitude = 52.52
            longitude = 13.405
            country = "DE"
            [catalog]
            database = "\(directory.path("db/wavedial.sqlite"))"
            servers = [\(list)]
            [dial]
            stations = 5
            \(extra)
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    private func syncOK() throws {
        let result = try cli.run("sync")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("synced 7 stations from \(server.baseURL): 6 playable, 7 added"), result.stdout)
    }

    func testSyncThenNearbyListsTheClosestPlayableStations() throws {
        try syncOK()
        let near = try cli.run("stations", "near", "--json")
        XCTAssertEqual(near.status, 0, near.stderr)
        let list = try XCTUnwrap(near.json() as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, [
            "Radio Bob 101.5", "Jazz Café Berlin", "Potsdam Klassik", "Landfunk ohne Ort", "Hamburg Welle 90,3",
        ])
        XCTAssertEqual(list[0]["stationuuid"] as? String, "11111111-0000-4000-8000-000000000001")
        XCTAssertEqual(try XCTUnwrap(list[0]["distance_km"] as? Double), 1.2, accuracy: 0.1)
        XCTAssertNil(list[3]["distance_km"], "the country fill has no distance")
        XCTAssertEqual(list[0]["url"] as? String, stations[0].url)

        let human = try cli.run("stations", "near", "--limit", "2")
        XCTAssertEqual(human.status, 0)
        XCTAssertTrue(human.stdout.contains("Radio Bob 101.5"))
        XCTAssertFalse(human.stdout.contains("Potsdam"))
    }

    func testDialPlacesStationsOnTheirStatedFrequencies() throws {
        try syncOK()
        let dial = try cli.run("dial", "--json")
        XCTAssertEqual(dial.status, 0, dial.stderr)
        let list = try XCTUnwrap(dial.json() as? [[String: Any]])
        XCTAssertEqual(list.count, 5)
        let byName = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0["frequency_mhz"] as! Double) })
        XCTAssertEqual(byName["Radio Bob 101.5"], 101.5)
        XCTAssertEqual(byName["Hamburg Welle 90,3"], 90.3)
        let frequencies = list.map { $0["frequency_mhz"] as! Double }
        XCTAssertEqual(frequencies, frequencies.sorted(), "the band is listed by frequency")
        // The same band after another sync and another run.
        XCTAssertEqual(try cli.run("sync").status, 0)
        let again = try XCTUnwrap(try cli.run("dial", "--json").json() as? [[String: Any]])
        XCTAssertEqual(again.map { $0["frequency_mhz"] as! Double }, frequencies)
        XCTAssertTrue(try cli.run("dial").stdout.contains("101.5  Radio Bob 101.5"))
    }

    func testSearchAndShow() throws {
        try syncOK()
        let search = try cli.run("stations", "search", "cafe", "--json")
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertEqual((try search.json() as? [[String: Any]])?.map { $0["name"] as? String }, ["Jazz Café Berlin"])
        let byTag = try cli.run("stations", "search", "--tag", "jazz", "--country", "FR", "--json")
        XCTAssertEqual((try byTag.json() as? [[String: Any]])?.map { $0["name"] as? String }, ["Paris Jazz"])
        let show = try cli.run("stations", "show", "Jazz Café Berlin", "--json")
        XCTAssertEqual(show.status, 0, show.stderr)
        let station = try XCTUnwrap(show.json() as? [String: Any])
        XCTAssertEqual(station["stationuuid"] as? String, "11111111-0000-4000-8000-000000000002")
        XCTAssertEqual(station["favorite"] as? Bool, false)
        XCTAssertNotNil(station["distance_km"])
        let byUUID = try cli.run("stations", "show", "11111111-0000-4000-8000-000000000005")
        XCTAssertTrue(byUUID.stdout.split(separator: "\n").contains { $0.hasPrefix("playable ") && $0.hasSuffix("  no (Format not supported (WMA))") }, byUUID.stdout)
        let missing = try cli.run("stations", "show", "Nonexistent FM")
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderrLines, ["wavedial: no station matches 'Nonexistent FM'"])
        let ambiguous = try cli.run("stations", "show", "jazz")
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(ambiguous.stderr.contains("matches several stations"), ambiguous.stderr)
    }

    func testFavoritesRoundTrip() throws {
        try syncOK()
        XCTAssertEqual(try cli.run("fav", "add", "Radio Bob 101.5").status, 0)
        XCTAssertEqual(try cli.run("fav", "add", "Jazz Café Berlin").status, 0)
        XCTAssertEqual(try cli.run("fav", "add", "11111111-0000-4000-8000-000000000003").status, 0)
        XCTAssertTrue(try cli.run("fav", "add", "Radio Bob 101.5").stdout.contains("already a favorite"))
        XCTAssertEqual(try cli.run("fav", "move", "Potsdam Klassik", "1").status, 0)
        var list = try XCTUnwrap(try cli.run("fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["Potsdam Klassik", "Radio Bob 101.5", "Jazz Café Berlin"])
        XCTAssertEqual(list.map { $0["position"] as? Int }, [1, 2, 3])
        XCTAssertEqual(list[1]["frequency_mhz"] as? Double, 101.5)

        let export = try cli.run("fav", "export")
        XCTAssertEqual(export.status, 0)
        let exportFile = directory.path("favorites.json")
        try export.stdout.write(toFile: exportFile, atomically: true, encoding: .utf8)
        let m3u = try cli.run("fav", "export", "--m3u")
        XCTAssertTrue(m3u.stdout.hasPrefix("#EXTM3U\n#EXTINF:-1,Potsdam Klassik\n"), m3u.stdout)
        XCTAssertTrue(m3u.stdout.contains("#EXTINF:-1,Jazz Café Berlin\nhttp://jazz.example/live.mp3\n"))

        XCTAssertEqual(try cli.run("fav", "remove", "Radio Bob 101.5").status, 0)
        XCTAssertEqual(try cli.run("fav", "remove", "11111111-0000-4000-8000-000000000003").status, 0)
        XCTAssertEqual(try cli.run("fav", "remove", "Radio Bob 101.5").status, 66)
        list = try XCTUnwrap(try cli.run("fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["Jazz Café Berlin"])

        let imported = try cli.run("fav", "import", exportFile)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported 2 favorites (1 were already there)"), imported.stdout)
        list = try XCTUnwrap(try cli.run("fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["Jazz Café Berlin", "Potsdam Klassik", "Radio Bob 101.5"])

        let playlist = directory.path("list.m3u")
        try "#EXTM3U\n#EXTINF:-1,Somewhere Else\nhttp://elsewhere.example/stream\n#EXTINF:-1,Jazz\nhttp://jazz.example/live.mp3\n"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertTrue(try cli.run("fav", "import", playlist).stdout.contains("imported 1 favorites"))
        XCTAssertTrue(try cli.run("fav", "list").stdout.contains("Somewhere Else"))

        let broken = directory.path("broken.json")
        try #"[{"name": "no uuid"}]"#.write(toFile: broken, atomically: true, encoding: .utf8)
        let failed = try cli.run("fav", "import", broken)
        XCTAssertEqual(failed.status, 64)
        XCTAssertEqual(failed.stderrLines.count, 1)
        XCTAssertTrue(failed.stderr.contains("nothing was imported"), failed.stderr)
        XCTAssertEqual((try cli.run("fav", "list", "--json").json() as? [Any])?.count, 4)
    }

    func testLocationSetAndShow() throws {
        try syncOK()
        let shown = try XCTUnwrap(try cli.run("location", "show", "--json").json() as? [String: Any])
        XCTAssertEqual(shown["source"] as? String, "config")
        XCTAssertEqual(shown["latitude"] as? Double, 52.52)
        let set = try cli.run("location", "set", "48.8566", "2.3522")
        XCTAssertEqual(set.status, 0, set.stderr)
        let moved = try XCTUnwrap(try cli.run("location", "show", "--json").json() as? [String: Any])
        XCTAssertEqual(moved["source"] as? String, "database")
        XCTAssertEqual(moved["longitude"] as? Double, 2.3522)
        let near = try XCTUnwrap(try cli.run("stations", "near", "--limit", "1", "--json").json() as? [[String: Any]])
        XCTAssertEqual(near.first?["name"] as? String, "Paris Jazz")
        let southWest = try cli.run("location", "set", "-33.92", "-18.42")
        XCTAssertEqual(southWest.status, 0, southWest.stderr)
        let bad = try cli.run("location", "set", "91", "0")
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderrLines, ["wavedial: latitude must be between -90 and 90"])
    }

    func testUnreachableServersKeepTheCatalogAndSayWhy() throws {
        try syncOK()
        let refused = "http://127.0.0.1:\(freeLoopbackPort())"
        try writeConfig(servers: [refused])
        let result = try cli.run("sync")
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("wavedial: sync failed: \(refused): connection refused"), result.stderr)
        XCTAssertEqual((try cli.run("stations", "near", "--json").json() as? [Any])?.count, 5)
    }
}
