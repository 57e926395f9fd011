import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The daemon as the fault tests use it: a catalog of the stations a test names (synced from a
/// loopback Radio Browser before the start), short network timeouts, ALSA captured to a file, a 20x4
/// LCD (so the words fit without scrolling) and the CLI pointed at its socket.
final class RadioUnderTest {
    struct StationSpec {
        let uuid: String
        let name: String
        let url: String
    }

    let directory: TemporaryDirectory
    let catalog: RadioBrowserTestServer
    var cli = CLIRunner()
    let capture: URL
    let socketPath: String
    let configPath: String
    /// A port nothing listens on, listed as a second Radio Browser server.
    let deadCatalogPort = freeLoopbackPort()
    private(set) var daemon: DaemonProcess?

    /// - Parameters:
    ///   - startTimeout: `[audio] start_timeout_seconds` (2 by default: the fault rows' waits stay short).
    ///   - dial: more `[dial]` lines.
    ///   - configure: changes to the config file before it is written.
    init(stations: [StationSpec], startTimeout: Int = 2, dial: [String] = [],
         configure: (inout RadioConfigFile) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        let records = stations.map { spec -> Station in
            var station = StationFixtures.station(spec.uuid, spec.name, lat: 52.52, lon: 13.40)
            station.url = spec.url
            return station
        }
        catalog = try RadioBrowserTestServer(stations: StationFixtures.radioBrowserJSON(records), directory: directory)
        let (device, file) = AlsaCapture.device(named: "faults")
        capture = file
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        configPath = directory.path("config.toml")
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.servers.append("http://127.0.0.1:\(deadCatalogPort)")
        config.audioDevice = device
        config.audio = ["start_timeout_seconds = \(startTimeout)", "stall_timeout_seconds = 1", "connect_timeout_seconds = 1",
                        "reconnect_max_seconds = 1"]
        config.extra = "[display]\ncolumns = 20\nrows = 4"
        config.dial = dial
        configure(&config)
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let sync = try cli.run("sync")
        guard sync.status == 0 else { throw FixtureError("catalog sync failed: \(sync.stderr)") }
    }

    /// Starts `wavediald --headless`, through `launcher` when given (e.g. into a network namespace),
    /// with `environment` added to its own.
    func startDaemon(launcher: [String] = [], environment: [String: String] = [:],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: environment.merging(["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH"))]) { _, new in new },
            launcher: launcher)
        self.daemon = daemon
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log, file: file, line: line)
    }

    func stop() {
        _ = daemon?.terminate()
        catalog.stop()
        unlink(socketPath)
        try? FileManager.default.removeItem(at: capture)
        directory.remove()
    }

    var databasePath: String { directory.path("db/wavedial.sqlite") }

    func tune(_ uuid: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = try? cli.run("tune", uuid)
        XCTAssertEqual(result?.status, 0, result?.stderr ?? "tune did not run", file: file, line: line)
    }

    /// `wavedial status --json`; empty when the daemon did not answer.
    func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    var error: String? { status()["error"] as? String }

    /// The LCD mirror (`wavedial lcd show --json`), its lines joined.
    func lcd() -> String {
        let lines = (try? cli.run("lcd", "show", "--json").json() as? [String: Any])?["lines"] as? [String]
        return lines?.joined(separator: "\n") ?? ""
    }

    /// The LCD mirror shows `words` (within a display tick or two of the status saying so).
    func assertLCDShows(_ words: String, file: StaticString = #filePath, line: UInt = #line) {
        waitFor("the LCD shows \(words)", timeout: 2, file: file, line: line) { lcd().contains(words) }
    }

    var captured: [Int16] { AlsaCapture.samples(in: capture) }
    var capturedFrames: Int { captured.count / 2 }

    func waitFor(_ what: String, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition), "\(what); status: \(status()); lcd: \(lcd()); log: \(daemon?.log.suffix(1500) ?? "")",
                      file: file, line: line)
    }

    /// Waits for `seconds` of new audio past `frame`, then checks it is the 440 Hz test tone.
    func assertSoundAgain(after frame: Int, seconds: Int = 2, timeout: TimeInterval = 20,
                          file: StaticString = #filePath, line: UInt = #line) {
        waitFor("\(seconds) s of new audio", timeout: timeout, file: file, line: line) {
            capturedFrames > frame + seconds * 44_100
        }
        let fresh = Array(captured.dropFirst(frame * 2))
        XCTAssertEqual(PCMAnalysis.frequency(fresh, channels: 2, sampleRate: 44_100), 440, accuracy: 5,
                       "the test tone", file: file, line: line)
    }

    /// The daemon still runs and answers.
    func assertAlive(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(daemon?.process.isRunning, true, "the daemon exited: \(daemon?.log.suffix(2000) ?? "")",
                       file: file, line: line)
        XCTAssertNotNil(status()["state"], "the daemon answers status", file: file, line: line)
    }
}
