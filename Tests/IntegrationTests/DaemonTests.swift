import Foundation
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

/// The daemon in headless simulation, black box: the real `wavediald` and `wavedial`
/// binaries, a loopback Radio Browser, a config file, ALSA's null device.
final class DaemonTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var configPath: String!
    private var socketPath: String!
    private var daemon: DaemonProcess?

    // Stations whose streams point at a closed loopback port: the radio tunes them and
    // reports them offline, which is all these tests need from audio.
    private lazy var deadPort = freeLoopbackPort()
    private lazy var stations: [Station] = [
        ("00000000-0000-4000-8000-0000000000b0", "Radio Bob 101.5", 52.52),
        ("00000000-0000-4000-8000-0000000000a1", "Jazz 94.1", 52.53),
        ("00000000-0000-4000-8000-0000000000c1", "Talk 94.5", 52.51),
    ].map { uuid, name, lat in
        var station = F.station(uuid, name, lat: lat, lon: 13.4)
        station.url = "http://127.0.0.1:\(deadPort)/\(uuid)"
        return station
    }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        configPath = directory.path("config.toml")
        // Unix socket paths are short: keep it out of the long temporary folder name.
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        try writeConfig()
        cli.environment["WAVEDIAL_CONFIG"] = configPath
    }

    override func tearDown() {
        _ = daemon?.terminate()
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    private func writeConfig(extra: String = "") throws {
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.country = "DE"
        config.audio = ["start_timeout_seconds = 2"]
        config.extra = extra
        try config.write(to: configPath)
    }

    private func startDaemon(environment: [String: String] = [:]) throws -> DaemonProcess {
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
                                       extraEnvironment: environment)
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        self.daemon = daemon
        return daemon
    }

    private func status() throws -> [String: Any] {
        let result = try cli.run("status", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(result.json() as? [String: Any])
    }

    /// Polls `status` until `condition` holds (the daemon acts on its own threads).
    private func waitForStatus(timeout: TimeInterval = 10, _ condition: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String: Any] = [:]
        while Date() < deadline {
            last = try status()
            if condition(last) { return last }
            usleep(50_000)
        }
        XCTFail("status never matched; last: \(last)")
        return last
    }

    private func stationID(_ status: [String: Any]) -> String? { (status["station"] as? [String: Any])?["stationuuid"] as? String }

    private func lcd() throws -> [String] {
        let result = try cli.run("lcd", "show", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap((result.json() as? [String: Any])?["lines"] as? [String])
    }

    func testFirstStartSyncsTurningSnapsAndTheLCDFollows() throws {
        _ = try startDaemon()
        _ = try waitForStatus { _ in (try? WavedialDatabase.open(path: self.directory.path("db/wavedial.sqlite")).stationCount()) == 3 }
        let turned = try cli.run("sim", "turn", "65")  // 87.5 → 94.0
        XCTAssertEqual(turned.status, 0, turned.stderr)
        let tuned = try waitForStatus { self.stationID($0) == "00000000-0000-4000-8000-0000000000a1" }
        XCTAssertEqual((tuned["station"] as? [String: Any])?["frequency_mhz"] as? Double, 94.1)
        XCTAssertEqual(tuned["needle_mhz"] as? Double, 94.1)
        let failed = try waitForStatus { $0["state"] as? String == "failed" }
        XCTAssertEqual(failed["error"] as? String, "Station offline")
        let deadline = Date().addingTimeInterval(5)
        var lines = try lcd()
        // The reason is wider than its field: it scrolls, starting with its beginning.
        while !(lines.joined().contains("Station off")) && Date() < deadline { usleep(50_000); lines = try lcd() }
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].contains("94.1"), "\(lines)")
        XCTAssertTrue(lines[1].contains("Station off"), "\(lines)")
    }

    func testFavoritesBandBackForwardAndResumeAfterAPulledPlug() throws {
        var daemon = try startDaemon()
        _ = try waitForStatus { _ in (try? WavedialDatabase.open(path: self.directory.path("db/wavedial.sqlite")).stationCount()) == 3 }
        XCTAssertEqual(try cli.run("tune", "101.5").status, 0)
        XCTAssertEqual(try cli.run("sim", "press", "favorite").status, 0)
        XCTAssertEqual(try cli.run("tune", "Jazz 94.1").status, 0)
        XCTAssertEqual(try cli.run("tune", "94.5").status, 0)
        XCTAssertEqual(stationID(try status()), "00000000-0000-4000-8000-0000000000c1")
        XCTAssertEqual(try cli.run("back").status, 0)
        XCTAssertEqual(stationID(try status()), "00000000-0000-4000-8000-0000000000a1")
        XCTAssertEqual(try cli.run("forward").status, 0)
        XCTAssertEqual(stationID(try status()), "00000000-0000-4000-8000-0000000000c1")

        // The favorites band holds only Bob: any turn ends there.
        XCTAssertEqual(try cli.run("sim", "press", "favorite", "--long").status, 0)
        XCTAssertEqual(try status()["band"] as? String, "favorites")
        XCTAssertEqual(try cli.run("sim", "turn", "-30").status, 0)
        let onFavorite = try waitForStatus { self.stationID($0) == "00000000-0000-4000-8000-0000000000b0" }
        XCTAssertEqual(onFavorite["favorite"] as? Bool, true)
        XCTAssertEqual(try cli.run("volume", "35").status, 0)

        daemon.kill()
        XCTAssertEqual(try cli.run("status").status, 69, "control commands say the daemon is gone")
        daemon = try startDaemon()
        let resumed = try waitForStatus { self.stationID($0) != nil }
        XCTAssertEqual(stationID(resumed), "00000000-0000-4000-8000-0000000000b0", "the last station resumes")
        XCTAssertEqual(resumed["volume"] as? Int, 35)
        XCTAssertEqual(resumed["band"] as? String, "favorites")
        let favorites = try XCTUnwrap(try cli.run("fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(favorites.map { $0["name"] as? String }, ["Radio Bob 101.5"])
        XCTAssertEqual(try WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).integrityProblems(), [])
    }

    func testSIGTERMExitsCleanlyAndRemovesTheSocket() throws {
        let daemon = try startDaemon()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath))
        self.daemon = nil
    }

    func testBadControlRequestsDoNotHarmTheDaemon() throws {
        _ = try startDaemon()
        let fd = try StreamSocketProbe.connect(socketPath)
        defer { close(fd) }
        let garbage = Array("{\"command\": 42}\n\u{0}\u{1}binary\n{\"command\":\"tune\",\"value\":\"999\"}\n".utf8)
        XCTAssertEqual(write(fd, garbage, garbage.count), garbage.count)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = ""
        let deadline = Date().addingTimeInterval(5)
        while received.split(separator: "\n").count < 3 && Date() < deadline {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += String(decoding: buffer.prefix(count), as: UTF8.self)
        }
        let replies = received.split(separator: "\n")
        XCTAssertEqual(replies.count, 3, received)
        XCTAssertTrue(replies.allSatisfy { $0.contains("\"ok\":false") }, received)
        XCTAssertTrue(replies[2].contains("outside the band"), received)
        let tune = try cli.run("tune", "999")
        XCTAssertEqual(tune.status, 1)
        XCTAssertEqual(tune.stderrLines, ["wavedial: 999 MHz is outside the band (87.5–108.0 MHz)"])
        XCTAssertEqual(try status()["state"] as? String, "idle", "still alive and well")
    }

    func testABrokenConfigIsAClearErrorNamingTheKey() throws {
        try writeConfig(extra: "[hardware.encoder]\nsteps_per_detent = 3\n")
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        XCTAssertEqual(daemon.waitForExit(timeout: 10), 78)
        XCTAssertTrue(daemon.log.contains("'hardware.encoder.steps_per_detent' must be 4, 2 or 1, not 3"), daemon.log)
        XCTAssertTrue(daemon.log.contains("line 1"), daemon.log)
    }

    func testPlaysAreReportedToRadioBrowser() throws {
        _ = try startDaemon()
        _ = try waitForStatus { _ in (try? WavedialDatabase.open(path: self.directory.path("db/wavedial.sqlite")).stationCount()) == 3 }
        XCTAssertEqual(try cli.run("tune", "Talk 94.5").status, 0)
        let deadline = Date().addingTimeInterval(10)
        while !catalog.requests().contains(where: { $0.path == "/json/url/00000000-0000-4000-8000-0000000000c1" }) && Date() < deadline {
            usleep(50_000)
        }
        XCTAssertTrue(catalog.requests().contains { $0.path == "/json/url/00000000-0000-4000-8000-0000000000c1" },
                      "\(catalog.requests().map(\.path))")
    }

    func testSystemdHearsReadyWatchdogAndStatus() throws {
        let notifyPath = "/tmp/wd-notify-\(UUID().uuidString.prefix(8))"
        let receiver = try DatagramReceiver(path: notifyPath)
        defer { receiver.close() }
        _ = try startDaemon(environment: ["NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "400000"])
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while !(messages.contains { $0.contains("WATCHDOG=1") } && messages.contains { $0.hasPrefix("READY=1") })
                && Date() < deadline {
            if let message = receiver.receive(timeout: 1) { messages.append(message) }
        }
        XCTAssertTrue(messages.contains { $0.hasPrefix("READY=1") && $0.contains("STATUS=") }, "\(messages)")
        XCTAssertTrue(messages.contains("WATCHDOG=1"), "\(messages)")
        XCTAssertEqual(daemon?.terminate(), 0)
        var rest: [String] = []
        while let message = receiver.receive(timeout: 1) { rest.append(message) }
        XCTAssertTrue(rest.contains { $0.hasPrefix("STOPPING=1") }, "\(rest)")
        daemon = nil
    }

    func testSIGHUPReloadsTheConfiguration() throws {
        let daemon = try startDaemon()
        _ = try waitForStatus { _ in (try? WavedialDatabase.open(path: self.directory.path("db/wavedial.sqlite")).stationCount()) == 3 }
        XCTAssertEqual(try cli.run("tune", "94.1").status, 0)
        XCTAssertEqual((try status()["station"] as? [String: Any])?["frequency_mhz"] as? Double, 94.1)
        // Only the nearest station (Bob, 0.3 km away) stays on the dial: Jazz plays on, off the band.
        var text = try String(contentsOfFile: configPath, encoding: .utf8)
        text = text.replacingOccurrences(of: "[dial]\n", with: "[dial]\nstations = 1\n")
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        _ = try waitForStatus { ($0["station"] as? [String: Any])?["frequency_mhz"] == nil }
        XCTAssertTrue(daemon.log.contains("configuration reloaded"), daemon.log)
        XCTAssertEqual(try cli.run("tune", "94.1").status, 0)
        XCTAssertEqual(stationID(try status()), "00000000-0000-4000-8000-0000000000b0", "94.1 now finds Bob, the only one on the band")
        // A broken config on SIGHUP is refused and the running one kept.
        try "[dial]\nstations = \"many\"\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        usleep(300_000)
        XCTAssertTrue(daemon.process.isRunning)
        XCTAssertTrue(daemon.log.contains("configuration not reloaded"), daemon.log)
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)  // the CLI reads it too
        XCTAssertEqual(stationID(try status()), "00000000-0000-4000-8000-0000000000b0")
    }

    func testNoDaemonMeansAClearMessage() throws {
        let result = try cli.run("play")
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.stderrLines, ["wavedial: the daemon is not running (no control socket at \(socketPath!))"])
    }
}

/// A Unix datagram socket standing in for systemd's notify socket.
final class DatagramReceiver {
    private let fd: Int32
    private let path: String

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func receive(timeout: Int) -> String? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}
