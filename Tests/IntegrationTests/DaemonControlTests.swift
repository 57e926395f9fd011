import Foundation
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

/// Hostile numbers through the control socket and the CLI, against the real daemon headless:
/// nothing a client sends may crash it, and a station named like a number is still a station.
final class DaemonControlTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var daemon: DaemonProcess?

    private let infinity = "00000000-0000-4000-8000-0000000000f1"
    private let notANumber = "00000000-0000-4000-8000-0000000000f2"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // Streams on a closed loopback port: tuned, then offline, which is all these tests need from audio.
        let deadPort = freeLoopbackPort()
        let stations = [(infinity, "Infinity"), (notANumber, "NaN"), ("00000000-0000-4000-8000-0000000000a1", "Jazz 94.1")]
            .map { uuid, name -> Station in
                var station = F.station(uuid, name, lat: 52.52, lon: 13.4)
                station.url = "http://127.0.0.1:\(deadPort)/\(uuid)"
                return station
            }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        let configPath = directory.path("config.toml")
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.country = "DE"
        config.audio = ["start_timeout_seconds = 2"]
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        XCTAssertEqual(try cli.run("sync").status, 0)
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        self.daemon = daemon
    }

    override func tearDown() {
        _ = daemon?.terminate()
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    private func tunedStation() throws -> String? {
        let result = try cli.run("status", "--json")
        XCTAssertEqual(result.status, 0, "the daemon answers: \(result.stderr)\n\(daemon?.log ?? "")")
        let status = try result.json() as? [String: Any]
        return (status?["station"] as? [String: Any])?["stationuuid"] as? String
    }

    private func assertAlive(after what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(daemon?.process.isRunning ?? false, "the daemon survived \(what)\n\(daemon?.log ?? "")", file: file, line: line)
    }

    func testNumbersThatAreNoFrequencyAreRefusedAndNamesLikeNumbersStillTune() throws {
        for number in ["1e300", "-1e300", "1e19", "-9.3e18", "0x1p70"] {
            let tune = try cli.run("tune", number)
            assertAlive(after: "tune \(number)")
            XCTAssertEqual(tune.status, 1, tune.stderr)
            XCTAssertEqual(tune.stderrLines, ["wavedial: \(number) MHz is outside the band (87.5–108.0 MHz)"])
        }
        // Not numbers at all, as frequencies go: names, looked up as any name is.
        XCTAssertEqual(try cli.run("tune", "Infinity").status, 0)
        assertAlive(after: "tune Infinity")
        XCTAssertEqual(try tunedStation(), infinity)
        XCTAssertEqual(try cli.run("tune", "nan").status, 0)
        assertAlive(after: "tune nan")
        XCTAssertEqual(try tunedStation(), notANumber)
        for name in ["inf", "-inf", "+infinity", "-nan", "nan(0x1)"] {
            _ = try cli.run("tune", name)
            assertAlive(after: "tune \(name)")
        }
        XCTAssertEqual(try cli.run("tune", "94,1").status, 0, "a frequency with a decimal comma still tunes")
        XCTAssertEqual(try tunedStation(), "00000000-0000-4000-8000-0000000000a1")
    }

    /// With the daemon running, the CLI's changes to the favorites and the location are written by the
    /// daemon (its log says so), whose favorites and bands follow at once; its configuration is not read again,
    /// as a `reload` would.
    func testFavoritesAndTheLocationChangedByTheCLIAreWrittenByTheRunningDaemon() throws {
        XCTAssertEqual(try cli.run("tune", "Jazz 94.1").status, 0)
        func isFavorite() throws -> Bool? { (try cli.run("status", "--json").json() as? [String: Any])?["favorite"] as? Bool }
        XCTAssertEqual(try isFavorite(), false)
        let add = try cli.run("fav", "add", "Jazz 94.1")
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(try isFavorite(), true, "the daemon knows the new favorite at once")
        XCTAssertEqual(try cli.run("fav", "add", "Jazz 94.1").stdout, "Jazz 94.1 is already a favorite\n")
        XCTAssertEqual(try cli.run("fav", "move", "Jazz 94.1", "5").stdout, "moved Jazz 94.1 to position 1\n", "there is one favorite")
        XCTAssertEqual(try cli.run("fav", "remove", "Jazz 94.1").status, 0)
        XCTAssertEqual(try isFavorite(), false)
        let playlist = directory.path("favorites.m3u")
        try "#EXTM3U\n#EXTINF:-1,Jazz\nhttp://127.0.0.1:1/jazz\n#EXTINF:-1,Home\nhttp://192.168.1.5:8000/live\n"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.run("fav", "import", playlist).stdout, "imported 2 favorites (0 were already there)\n")
        XCTAssertEqual(try cli.run("fav", "import", playlist).stdout, "imported 0 favorites (2 were already there)\n")
        XCTAssertEqual((try cli.run("fav", "list", "--json").json() as? [Any])?.count, 2)
        XCTAssertEqual(try cli.run("location", "set", "52.5", "13.4").status, 0)
        XCTAssertEqual(try tunedStation(), "00000000-0000-4000-8000-0000000000a1")
        let log = daemon?.log ?? ""
        XCTAssertFalse(log.contains("configuration reloaded"), "a data change is not a reload:\n\(log)")
        for command in ["favorite_add", "favorite_move", "favorite_remove", "favorites_import", "location_set"] {
            XCTAssertTrue(log.contains("written for the CLI") && log.contains(command), "\(command) written by the daemon:\n\(log)")
        }
        // A data change names what changed.
        let fd = try StreamSocketProbe.connect(socketPath)
        defer { close(fd) }
        let request = Array(#"{"command":"data_changed","value":"config"}"#.utf8) + [10]
        XCTAssertEqual(write(fd, request, request.count), request.count)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        XCTAssertTrue(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).contains("data_changed names what changed"))
    }

    func testHostileNumbersOnTheSocketGetAnErrorReply() throws {
        let fd = try StreamSocketProbe.connect(socketPath)
        defer { close(fd) }
        let requests = [
            #"{"command":"sim_turn","steps":-9223372036854775808}"#,
            #"{"command":"sim_turn","steps":9223372036854775807}"#,
            #"{"command":"tune","value":"inf"}"#,
            #"{"command":"tune","value":"-1e300"}"#,
            #"{"command":"volume","value":"99999999999999999999"}"#,
            #"{"command":"volume","value":"-nan"}"#,
            #"{"command":"sim_turn","steps":1e300}"#,
        ]
        let bytes = Array((requests.joined(separator: "\n") + "\n").utf8)
        XCTAssertEqual(write(fd, bytes, bytes.count), bytes.count)
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while received.split(separator: "\n").count < requests.count && Date() < deadline {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += String(decoding: buffer.prefix(count), as: UTF8.self)
        }
        let replies = received.split(separator: "\n")
        _ = try tunedStation()
        assertAlive(after: "\(requests)")
        guard replies.count == requests.count else { return XCTFail("\(replies.count) replies to \(requests.count) requests: \(received)") }
        XCTAssertTrue(replies[0].contains("sim_turn needs steps"), received)
        XCTAssertTrue(replies[1].contains("sim_turn needs steps"), received)
        XCTAssertTrue(replies[3].contains("outside the band"), received)
        XCTAssertTrue(replies[4].contains("volume must be a whole number"), received)
        XCTAssertTrue(replies[5].contains("volume must be a whole number"), received)
        XCTAssertTrue(replies[6].contains("not a JSON request object"), received)
    }

    func testTheCLIRefusesHostileNumbersWithAUsageError() throws {
        let cases: [[String]] = [
            ["sim", "turn", "-9223372036854775808"],
            ["sim", "turn", "9223372036854775807"],
            ["play-url", "http://radio.example/stream", "--seconds", "nan"],
            ["play-url", "http://radio.example/stream", "--seconds", "inf"],
            ["check-url", "http://radio.example/stream", "--timeout", "inf"],
            ["check-url", "http://radio.example/stream", "--timeout", "1e300"],
            ["lcd", "show", "--state", "playing", "--frequency", "1e300"],
            ["lcd", "show", "--state", "playing", "--scroll-speed", "inf"],
            ["lcd", "show", "--state", "playing", "--scroll-speed", "nan"],
            ["lcd", "test", "--seconds", "inf"],
            ["location", "set", "nan", "13.4"],
            ["location", "set", "52.5", "inf"],
        ]
        for arguments in cases {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
        assertAlive(after: "the CLI's refusals")
    }
}
