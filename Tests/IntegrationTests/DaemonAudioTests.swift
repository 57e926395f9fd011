import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The daemon playing for real: a loopback Icecast2 sending a 440 Hz tone with ICY titles,
/// ALSA's output captured by the `file` plugin, the knob turned with `wavedial sim turn`.
final class DaemonAudioTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var icecast: IcecastServer!
    private var catalog: RadioBrowserTestServer!
    private var daemon: DaemonProcess?
    private var cli = CLIRunner()
    private var capture: URL!
    private var socketPath: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30))
        var station = F.station("00000000-0000-4000-8000-0000000000f1", "Tone FM 94.1", lat: 52.52, lon: 13.40)
        station.url = icecast.url
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON([station]), directory: directory)
        let (device, file) = AlsaCapture.device(named: "daemon")
        capture = file
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        let configPath = directory.path("config.toml")
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.audioDevice = device
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: ["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH"))])
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        self.daemon = daemon
    }

    override func tearDown() {
        _ = daemon?.terminate()
        icecast.stop()
        catalog.stop()
        unlink(socketPath)
        try? FileManager.default.removeItem(at: capture)
        directory.remove()
    }

    private func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    private func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition), "\(what); status: \(status()); log: \(daemon?.log.suffix(2000) ?? "")")
    }

    private var captured: [Int16] { AlsaCapture.samples(in: capture) }

    func testTurnWaitAndTheTonePlaysWithItsTitleThenComesBackAfterTheServerDies() throws {
        waitFor("the first-start sync") { (try? WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).stationCount()) == 1 }
        // ALSA's file plugin over `null` takes audio as fast as it comes, so the player alternates
        // between playing and buffering: follow every state rather than poll.
        let follower = try StatusFollower(binary: cli.binary, environment: cli.environment)
        defer { follower.stop() }
        XCTAssertEqual(try cli.run("sim", "turn", "60").status, 0)  // 93.5: the only station is at 94.1
        waitFor("playing") { follower.states.contains("playing") }
        XCTAssertEqual((status()["station"] as? [String: Any])?["frequency_mhz"] as? Double, 94.1)
        try icecast.setTitle("Test Artist - Tone Song")
        waitFor("the title") { status()["title"] as? String == "Test Artist - Tone Song" }
        waitFor("two seconds of audio") { captured.count > 2 * 44_100 * 2 }
        // The last second: what came before it includes the sweep's hiss while the knob turned.
        XCTAssertEqual(PCMAnalysis.frequency(Array(captured.suffix(44_100 * 2)), channels: 2, sampleRate: 44_100), 440, accuracy: 5)
        // Each subsystem's thread shows by name in top -H and gdb.
        let names = ThreadNames.of(try XCTUnwrap(daemon).process.processIdentifier)
        XCTAssertTrue(names.isSuperset(of: ["wd-audio", "wd-net", "wd-lcd", "wd-sync", "wd-control", "wd-control-clie"]), "\(names)")
        // The name scrolls on 16 columns: wait for the marquee to show its start.
        func lcdTop() -> String {
            (((try? cli.run("lcd", "show", "--json").json()) as? [String: Any])?["lines"] as? [String])?.first ?? ""
        }
        waitFor("the LCD shows the station") {
            let top = lcdTop()
            return top.contains("94.1") && top.contains("Tone")
        }
        XCTAssertEqual(try WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).songHistory().first?.title,
                       "Test Artist - Tone Song")

        // The stream dies: the LCD says so, and sound returns by itself when the server is back.
        icecast.killIcecast()
        waitFor("Reconnecting") { status()["error"] as? String == "Reconnecting" }
        let lcd = try XCTUnwrap((try cli.run("lcd", "show", "--json").json() as? [String: Any])?["lines"] as? [String])
        XCTAssertTrue(lcd.joined().contains("Reconnect"), "\(lcd)")
        let before = captured.count
        let statesBefore = follower.states.count
        XCTAssertTrue(try icecast.startIcecastAndWaitForMount(timeout: 15))
        waitFor("playing again") { follower.states.dropFirst(statesBefore).contains("playing") }
        waitFor("new audio") { captured.count > before + 44_100 * 2 }
        XCTAssertEqual(PCMAnalysis.frequency(Array(captured[before...]), channels: 2, sampleRate: 44_100), 440, accuracy: 5)
    }
}
