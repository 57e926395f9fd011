import Foundation
import Supervisor
import WavedialTestSupport
import XCTest

/// `wavediald --headless --demo` on a machine with no network (Radio Browser is a closed loopback port):
/// the demo band's stations are made with the real espeak-ng and ffmpeg (kept in `.build-media/`), served
/// by the daemon's own loopback server, turned to with `wavedial sim turn`, and heard through alsa-lib's
/// file plugin. The real database is never created, and the server's port and tools end with the daemon.
final class DemoBandTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var daemon: DaemonProcess?
    private var cli = CLIRunner()
    private var capture: URL!
    private var socketPath: String!
    private var configPath: String!
    private var realDatabase: String!

    /// The demo band's audio, made once for every run of these tests.
    static let sharedCache = ProjectPaths.root.appendingPathComponent(".build-media/demo-cache").path

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let (device, file) = AlsaCapture.device(named: "demo")
        capture = file
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        configPath = directory.path("config.toml")
        // No network: the only Radio Browser server is a port nothing listens on.
        var config = RadioConfigFile(directory: directory, servers: ["http://127.0.0.1:\(freeLoopbackPort())"], socket: socketPath)
        config.audioDevice = device
        // The real address policy (no loopback allowed by configuration): the demo band's own server is
        // the one loopback address its stations may reach.
        config.allowedAddresses = []
        try config.write(to: configPath)
        realDatabase = config.database
        cli.environment["WAVEDIAL_CONFIG"] = configPath
    }

    override func tearDown() {
        _ = daemon?.terminate()
        unlink(socketPath)
        try? FileManager.default.removeItem(at: capture)
        directory.remove()
    }

    private func startDaemon(cache: String) throws -> DaemonProcess {
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: ["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH")), "XDG_CACHE_HOME": cache],
            modeArguments: ["--headless", "--demo"])
        self.daemon = daemon
        return daemon
    }

    private func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    private func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition), "\(what); status: \(status()); log: \(daemon?.log.suffix(2000) ?? "")")
    }

    private var captured: [Int16] { AlsaCapture.samples(in: capture) }

    func testTheDemoBandPlaysOfflineWithTitlesAndFavoritesAndItsServerStopsWithTheDaemon() throws {
        let daemon = try startDaemon(cache: Self.sharedCache)
        // The first run makes the band's audio (about 15 s here); later ones find it made.
        XCTAssertTrue(daemon.waitUntilReady(timeout: 300), daemon.log)

        // The band: every demo station, at the frequency its name states, on the demo database.
        let dial = try XCTUnwrap(try cli.run("--demo", "dial", "--json").json() as? [[String: Any]])
        let band = DemoStation.band
        XCTAssertEqual(Set(dial.compactMap { $0["stationuuid"] as? String }), Set(band.map(\.stationuuid)), "\(dial)")
        for entry in dial {
            let name = try XCTUnwrap(entry["name"] as? String)
            XCTAssertEqual(entry["frequency_mhz"] as? Double, Double(name.split(separator: " ").last ?? ""), name)
            XCTAssertTrue((entry["url"] as? String)?.hasPrefix("http://127.0.0.1:") == true, "\(entry)")
        }
        let url = try XCTUnwrap(URLComponents(string: try XCTUnwrap(dial.first?["url"] as? String)))
        let port = try XCTUnwrap(url.port)
        XCTAssertNil(status()["error"], "no network is no problem for the demo band")

        // Turning the knob across the band tunes each station in turn, and each sounds its own tone.
        var needleKHz = 87_500
        for station in band.sorted(by: { kHz(of: $0) < kHz(of: $1) }) {
            let steps = (kHz(of: station) - needleKHz) / 100
            XCTAssertEqual(try cli.run("sim", "turn", "\(steps)").status, 0)
            needleKHz = kHz(of: station)
            // A title of its own is published when its audio reaches the device: what follows is this station.
            waitFor("\(station.name) playing with its programme") {
                let now = status()
                return (now["station"] as? [String: Any])?["stationuuid"] as? String == station.stationuuid
                    && station.programmes.contains(now["title"] as? String ?? "")
            }
            let start = captured.count
            waitFor("two seconds of \(station.name)") { captured.count > start + 2 * 48_000 * 2 }
            let heard = Array(captured[start...])
            let powers = band.map { PCMAnalysis.power(heard, channels: 2, sampleRate: 48_000, frequency: Double($0.toneHz)) }
            let loudest = try XCTUnwrap(powers.indices.max { powers[$0] < powers[$1] })
            XCTAssertEqual(band[loudest].toneHz, station.toneHz, "\(station.name): the tone heard; powers \(powers)")
            let others = powers.enumerated().filter { $0.offset != loudest }.map(\.element).max() ?? 0
            // Every connection starts with the ident, under which the chord ducks: still 5 times the rest.
            XCTAssertGreaterThan(powers[loudest], 5 * others, "\(station.name): its tone stands out; powers \(powers)")
        }

        // Titles change as the programme does (every 12 s of audio).
        let last = try XCTUnwrap(band.max { kHz(of: $0) < kHz(of: $1) })
        let firstTitle = status()["title"] as? String
        waitFor("the next programme", timeout: 30) {
            let title = status()["title"] as? String
            return title != firstTitle && last.programmes.contains(title ?? "")
        }

        // Favorites: the button on the radio, and `wavedial --demo fav add`, both on the demo database.
        XCTAssertEqual(try cli.run("sim", "press", "favorite").status, 0)
        waitFor("a favorite") { status()["favorite"] as? Bool == true }
        let other = band[1]
        let add = try cli.run("--demo", "fav", "add", other.name)
        XCTAssertEqual(add.status, 0, add.stderr)
        let favorites = try XCTUnwrap(try cli.run("--demo", "fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(favorites.compactMap { $0["stationuuid"] as? String }, [last.stationuuid, other.stationuuid])
        XCTAssertEqual(try cli.run("tune", other.name).status, 0)
        waitFor("the added favorite tuned") {
            let now = status()
            return (now["station"] as? [String: Any])?["stationuuid"] as? String == other.stationuuid && now["favorite"] as? Bool == true
        }
        // The demo band is not synced, and the catalog's database was never touched.
        XCTAssertNotEqual(try cli.run("sync").status, 0)
        XCTAssertNotEqual(try cli.run("--demo", "sync").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: realDatabase), "the real database was created")

        // SIGTERM: a clean stop, the port closed, no child left.
        let pid = daemon.process.processIdentifier
        XCTAssertEqual(ProcessTree.children(of: pid), [], "the daemon runs no tool once the band is made")
        XCTAssertTrue(ProcessTree.canConnect(toLoopbackPort: port), "the demo server listens while the daemon runs")
        XCTAssertEqual(daemon.terminate(), 0, daemon.log.suffix(2000).description)
        XCTAssertFalse(ProcessTree.canConnect(toLoopbackPort: port), "the demo server's port outlived the daemon")
        XCTAssertFalse(FileManager.default.fileExists(atPath: realDatabase), "the real database was created")
    }

    func testAStopWhileTheBandIsBeingMadeEndsItsToolsAndLeavesNoHalfMadeFile() throws {
        let cache = directory.path("cache")
        let daemon = try startDaemon(cache: cache)
        let pid = daemon.process.processIdentifier
        var tools: [pid_t] = []
        let deadline = Date().addingTimeInterval(60)
        while tools.isEmpty && Date() < deadline && daemon.process.isRunning {
            tools = ProcessTree.children(of: pid)
            usleep(20_000)
        }
        XCTAssertFalse(tools.isEmpty, "espeak-ng or ffmpeg at work: \(daemon.log)")
        XCTAssertEqual(daemon.terminate(), 0, daemon.log.suffix(2000).description)
        for tool in tools {
            XCTAssertTrue(kill(tool, 0) == -1 && errno == ESRCH, "tool \(tool) outlived the daemon")
        }
        let media = cache + "/wavedial/demo-\(DemoMedia.version)"
        let left = (try? FileManager.default.contentsOfDirectory(atPath: media)) ?? []
        XCTAssertTrue(left.allSatisfy { !$0.hasPrefix("work-") && !$0.contains("partial") }, "\(left)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: realDatabase), "the real database was created")
    }

    private func kHz(of station: DemoStation) -> Int {
        Int((Double(station.name.split(separator: " ").last ?? "")! * 1000).rounded())
    }
}
