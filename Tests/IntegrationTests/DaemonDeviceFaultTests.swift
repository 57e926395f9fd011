import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The fault matrix's device rows through the daemon: the ALSA device pulled out and plugged in again
/// (alsa-lib's external plugin `Tests/Fixtures/alsa-fault/wdfault.c`), and the appliance started on a
/// machine without its GPIO chip. A loopback Icecast2 plays a 440 Hz tone; status and `lcd show` say what
/// is wrong in plain words, and the daemon recovers by itself.
final class DaemonDeviceFaultTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var icecast: IcecastServer!
    private var catalog: RadioBrowserTestServer!
    private var device: UnpluggableAlsaDevice!
    private var daemon: DaemonProcess?
    private var cli = CLIRunner()
    private var socketPath: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        device = try UnpluggableAlsaDevice(named: "daemon")
        icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30))
        var station = F.station("00000000-0000-4000-8000-0000000000f2", "Tone FM 94.1", lat: 52.52, lon: 13.40)
        station.url = icecast.url
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON([station]), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
    }

    override func tearDown() {
        _ = daemon?.terminate()
        icecast.stop()
        catalog.stop()
        unlink(socketPath)
        device.remove()
        directory.remove()
    }

    /// Starts the daemon with the test config plus `extra` TOML, headless unless `modeArguments` say otherwise.
    private func startDaemon(extra: String = "", modeArguments: [String] = ["--headless"]) throws {
        let configPath = directory.path("config.toml")
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.audioDevice = device.device
        config.extra = extra
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: ["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH"))], modeArguments: modeArguments)
        self.daemon = daemon
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        waitFor("the first-start sync") { (try? WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).stationCount()) == 1 }
    }

    private func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    private func lcd() -> String {
        (((try? cli.run("lcd", "show", "--json").json()) as? [String: Any])?["lines"] as? [String])?.joined(separator: "|") ?? ""
    }

    private func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition), "\(what); status: \(status()); log: \(daemon?.log.suffix(2000) ?? "")")
    }

    func testTheAudioDevicePulledOutIsShownAndPlaysAgainOncePluggedIn() throws {
        try startDaemon()
        let follower = try StatusFollower(binary: cli.binary, environment: cli.environment)
        defer { follower.stop() }
        XCTAssertEqual(try cli.run("sim", "turn", "66").status, 0)  // 94.1
        waitFor("playing") { follower.states.contains("playing") }
        waitFor("a second of audio") { device.samples.count > 44_100 * 2 }

        device.unplug()
        waitFor("Audio device error") { status()["error"] as? String == "Audio device error" }
        waitFor("the LCD says so") { lcd().contains("Audio device") }
        XCTAssertEqual(status()["state"] as? String, "failed")
        XCTAssertEqual((status()["station"] as? [String: Any])?["frequency_mhz"] as? Double, 94.1, "the station stays tuned")

        let heard = device.samples.count
        let statesBefore = follower.states.count
        device.plugIn()
        waitFor("playing again") { follower.states.dropFirst(statesBefore).contains("playing") }
        waitFor("new audio") { device.samples.count > heard + 44_100 * 2 * 2 }
        XCTAssertEqual(PCMAnalysis.frequency(Array(device.samples[heard...]), channels: 2, sampleRate: 44_100), 440, accuracy: 5)
        waitFor("the error gone") { status()["error"] == nil || status()["error"] is NSNull }
        XCTAssertTrue(daemon?.log.contains("audio device lost") == true, daemon?.log ?? "")
    }

    func testTheApplianceWithoutItsGPIOChipStartsSaysKnobOfflineAndStillPlays() throws {
        // No such chip on this machine (nor a bus for the LCD, so the LCD is left out of this row).
        try startDaemon(extra: """
            [hardware]
            chip = "wavedial-test-no-such-chip"
            [display]
            driver = "none"
            """, modeArguments: [])
        waitFor("Knob offline in status") { status()["error"] as? String == "Knob offline" }
        waitFor("Knob offline on the LCD") { lcd().contains("Knob offline") }
        let follower = try StatusFollower(binary: cli.binary, environment: cli.environment)
        defer { follower.stop() }
        XCTAssertEqual(try cli.run("tune", "94.1").status, 0, "the control socket answers")
        waitFor("playing") { follower.states.contains("playing") }
        waitFor("two seconds of audio") { device.samples.count > 2 * 44_100 * 2 }
        XCTAssertEqual(PCMAnalysis.frequency(device.samples, channels: 2, sampleRate: 44_100), 440, accuracy: 5)
        XCTAssertEqual(status()["error"] as? String, "Knob offline", "still said while a station plays")
        // The reader is retried with back-off (1 s, 2 s, …), each failure logged with the chip named.
        waitFor("a retry") { (daemon?.log.components(separatedBy: "subsystem failed; restarting").count ?? 0) > 2 }
        XCTAssertTrue(daemon?.log.contains("wavedial-test-no-such-chip") == true, daemon?.log ?? "")
        XCTAssertEqual(daemon?.terminate(), 0, "and it stops cleanly")
        daemon = nil
    }

    func testTheApplianceWithoutItsLCDBusStartsAndSaysLCDOffline() throws {
        // The LCD's row through the daemon as far as this machine allows (it has no I2C bus): the bus is
        // missing at start. A bus that stops answering and comes back is DisplayServiceTests' (emulated).
        // The knob is simulated here, so the LCD is the only device missing.
        try startDaemon(extra: """
            [hardware]
            backend = "simulated"
            [display]
            bus = "\(directory.path("i2c-missing"))"
            """, modeArguments: [])
        waitFor("LCD offline in status") { status()["error"] as? String == "LCD offline" }
        waitFor("and in the mirror") { lcd().contains("LCD offline") }
        XCTAssertTrue(daemon?.log.contains("i2c-missing") == true, "the log names the bus: \(daemon?.log ?? "")")
        XCTAssertEqual(try cli.run("tune", "94.1").status, 0, "the control socket answers")
        waitFor("sound") { device.samples.count > 44_100 * 2 }
    }
}
