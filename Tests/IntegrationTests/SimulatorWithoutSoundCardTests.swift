import Foundation
import Supervisor
import WavedialTestSupport
import XCTest

/// A newcomer's first run (`scripts/run`) on a machine without a sound card, as a VM often is: the terminal
/// simulator with the offline demo band, on a pseudo-terminal. alsa-lib's complaints go to the log, not over
/// the screen; the LCD says "No sound card" and the radio plays on in silence: it tunes, shows the station and
/// its titles, and says where its audio goes in `status`. A card plugged in later is used without a restart.
final class SimulatorWithoutSoundCardTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var socketPath: String!
    private var cli = CLIRunner()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
    }

    override func tearDown() {
        unlink(socketPath)
        directory.remove()
    }

    /// Starts `wavediald --simulate --demo` on a terminal, playing to `device` under the ALSA configuration `alsa`.
    private func startSimulator(device: String, alsa: String) throws -> PseudoTerminal {
        let configPath = directory.path("config.toml")
        // No network: the only Radio Browser server is a port nothing listens on.
        var config = RadioConfigFile(directory: directory, servers: ["http://127.0.0.1:\(freeLoopbackPort())"], socket: socketPath)
        config.audioDevice = device
        config.allowedAddresses = []
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        return try PseudoTerminal(
            executable: ProjectPaths.product("wavediald"), arguments: ["--config", configPath, "--simulate", "--demo"],
            environment: ["ALSA_CONFIG_PATH": alsa, "XDG_CACHE_HOME": DemoBandTests.sharedCache])
    }

    private func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    private func waitFor(_ what: String, _ terminal: PseudoTerminal, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition),
                      "\(what); status: \(status()); screen: \(terminal.output.suffix(3000).debugDescription)")
    }

    /// Turns the knob to the first demo station (Radio Aurora 88.3, eight detents up from the band's start),
    /// a detent at a time (slower than the knob's acceleration), and waits for its name and one of its
    /// programme titles on the screen.
    private func tuneFirstStation(_ terminal: PseudoTerminal) throws {
        let station = try XCTUnwrap(DemoStation.band.first { $0.name.hasPrefix("Radio Aurora") })
        for _ in 0..<8 {
            terminal.type("\u{1B}[C")
            usleep(200_000)
        }
        // The LCD's 16 columns scroll both (11 columns each on the 16x2): their first nine characters show whole.
        waitFor("the station and a title shown", terminal, timeout: 30) {
            let screen = terminal.output
            return screen.contains(String(station.name.prefix(9))) && station.programmes.contains { screen.contains($0.prefix(9)) }
        }
        waitFor("playing", terminal) { status()["state"] as? String == "playing" }
        XCTAssertEqual((status()["station"] as? [String: Any])?["stationuuid"] as? String, station.stationuuid)
    }

    func testWithoutASoundCardTheScreenStaysCleanAndTheRadioPlaysOnInSilence() throws {
        // The machine's ALSA configuration with its default on a card that is not there: alsa-lib complains
        // as on a VM without a sound card ("cannot find card", "Unknown PCM default").
        let alsa = directory.path("asound.conf")
        try "</usr/share/alsa/alsa.conf>\ndefaults.pcm.card 9\ndefaults.ctl.card 9\n".write(toFile: alsa, atomically: true, encoding: .utf8)
        let terminal = try startSimulator(device: "default", alsa: alsa)
        defer { terminal.close() }
        // The first run makes the demo band's audio (about 15 s here).
        XCTAssertTrue(terminal.waitForOutput(containing: "q quit", timeout: 300), terminal.output.debugDescription)

        try tuneFirstStation(terminal)
        XCTAssertTrue(terminal.output.contains("No sound card"), "the LCD says it: \(terminal.output.suffix(3000).debugDescription)")
        let now = status()
        XCTAssertEqual(now["audio_output"] as? String, "none")
        let detail = try XCTUnwrap(now["audio_output_detail"] as? String, "\(now)")
        XCTAssertTrue(detail.hasPrefix("default: snd_pcm_open"), detail)
        XCTAssertNil(now["error"], "no sound card is no failure of the radio's")

        terminal.type("q")
        XCTAssertEqual(terminal.process.waitForExit(timeout: 20), .exited(0))
        let (screen, _) = terminal.ended()
        XCTAssertFalse(screen.contains("ALSA lib"), "alsa-lib wrote over the screen: \(screen.debugDescription)")
        XCTAssertFalse(screen.contains("cannot find card"), screen.debugDescription)
        // Its words are in the daemon's log, beside the database, which the simulator names as it quits.
        let log = try String(contentsOfFile: directory.path("db/wavediald.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("alsa-lib: cannot find card '9'"), log)
        XCTAssertTrue(log.contains("no sound card"), log)
        XCTAssertTrue(screen.contains("its log is in \(directory.path("db/wavediald.log"))"), screen.suffix(500).debugDescription)
    }

    func testASoundCardPluggedInLaterPlaysWithoutARestart() throws {
        let device = try UnpluggableAlsaDevice(named: "later")
        defer { device.remove() }
        device.unplug()
        let terminal = try startSimulator(device: device.device, alsa: String(cString: getenv("ALSA_CONFIG_PATH")))
        defer { terminal.close() }
        XCTAssertTrue(terminal.waitForOutput(containing: "q quit", timeout: 300), terminal.output.debugDescription)
        try tuneFirstStation(terminal)
        XCTAssertEqual(status()["audio_output"] as? String, "none")
        XCTAssertTrue(device.samples.isEmpty)

        device.plugIn()
        waitFor("the card used", terminal) { status()["audio_output"] as? String == device.device }
        waitFor("a second of the station heard", terminal) { device.samples.count > 48_000 * 2 }
        XCTAssertNil(status()["audio_output_detail"])
    }
}
