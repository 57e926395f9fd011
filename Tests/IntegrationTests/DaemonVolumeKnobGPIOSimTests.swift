import Foundation
import Hardware
import WavedialCore
import WavedialTestSupport
import XCTest

/// The radio's own volume controls through the kernel's gpio-sim and real libgpiod: the daemon in appliance
/// mode in the gpio-vm guest (scripts/test.d/gpio-vm) with a volume knob on its default pins (10, 9, push 11)
/// and the tuning knob on 17/27/22. Detents on the volume knob's lines change `status --json`'s volume by its
/// step, its push mutes; the tuning knob turned while pushed changes the volume by push-and-turn's step,
/// not the frequency, and that push does not mute; a short push does; a plain turn still tunes. Skips on
/// the host (no gpio-sim there).
final class DaemonVolumeKnobGPIOSimTests: XCTestCase {
    private typealias F = StationFixtures
    private let ms: UInt64 = 1_000_000

    func testTheVolumeKnobAndPushAndTurnChangeTheVolumeAndThePushesMute() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs the kernel's gpio-sim: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let station = F.station("00000000-0000-4000-8000-0000000000f4", "Volume FM 94.1", lat: 52.52, lon: 13.40)
        let catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON([station]), directory: directory)
        defer { catalog.stop() }
        let sim = try GPIOSimChip(lines: 32)
        let (device, capture) = AlsaCapture.device(named: "gpio-volume")
        defer { try? FileManager.default.removeItem(at: capture) }
        let socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        defer { unlink(socketPath) }
        let configPath = directory.path("config.toml")
        // Acceleration off, so each detent is exactly one step whatever pace the emulated guest keeps.
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.audioDevice = device
        config.extra = """
            [hardware]
            chip = "\(sim.label)"
            [hardware.encoder]
            acceleration = false
            push_turn_step_percent = 3
            [hardware.volume_encoder]
            step_percent = 5
            acceleration = false
            [display]
            driver = "none"
            """
        try config.write(to: configPath)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: ["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH"))], modeArguments: [])
        func status() -> [String: Any] { (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:] }
        func volume() -> Int? { status()["volume"] as? Int }
        func muted() -> Bool? { status()["muted"] as? Bool }
        func needle() -> Double? { status()["needle_mhz"] as? Double }
        // The guest is emulated on one CPU: poll slowly (each check starts the CLI), wait generously.
        func waitFor(_ what: String, timeout: TimeInterval = 60, _ condition: () -> Bool) {
            XCTAssertTrue(eventually(timeout: timeout, pollingEvery: 0.3, condition), "\(what); status: \(status()); log: \(daemon.log.suffix(2000))")
        }
        XCTAssertTrue(daemon.waitUntilReady(timeout: 90), daemon.log)
        waitFor("the lines taken") { status()["error"] == nil || status()["error"] is NSNull }
        XCTAssertEqual(try cli.run("volume", "50").status, 0)
        let start = try XCTUnwrap(needle())

        // Four detents clockwise on the volume knob: 4 × 5 points.
        var volumeKnob = EncoderSignalGenerator(stepsPerDetent: .four, restLevel: true, bounce: ContactBounce(), seed: 1)
        try sim.play(volumeKnob.turn(4, every: 80 * ms), offsets: [10, 9], activeLow: [false, false], minimumLineGap: 3 * ms)
        waitFor("the volume knob turned the volume up") { volume() == 70 }
        XCTAssertEqual(needle(), start, "the needle stays")

        // Its push (active low) mutes, and again unmutes.
        var volumePush = ButtonSignalGenerator(line: 0, seed: 2)
        try sim.play(volumePush.press(at: 1_000 * ms, holdingFor: 150 * ms), offsets: [11], activeLow: [true])
        waitFor("the volume knob's push muted") { muted() == true }
        try sim.play(volumePush.press(at: 3_000 * ms, holdingFor: 150 * ms), offsets: [11], activeLow: [true])
        waitFor("and unmuted") { muted() == false }

        // Push-and-turn on the tuning knob: held, three detents down; the volume moves by 3 each, not the needle.
        var tuning = EncoderSignalGenerator(stepsPerDetent: .four, restLevel: true, bounce: ContactBounce(), seed: 3, at: 1_200 * ms)
        var push = ButtonSignalGenerator(line: 2, seed: 4)
        let held = [GPIOEdge].merged([push.press(at: 1_000 * ms, holdingFor: 1_400 * ms), tuning.turn(-3, every: 150 * ms)])
        try sim.play(held, offsets: [17, 27, 22], activeLow: [false, false, true], minimumLineGap: 3 * ms)
        waitFor("push-and-turn turned the volume down") { volume() == 61 }
        usleep(1_000_000)
        XCTAssertEqual(muted(), false, "a push that turned does not mute")
        XCTAssertEqual(needle(), start, "nor does it tune")

        // A short push still mutes; a plain turn still tunes.
        try sim.play(push.press(at: 5_000 * ms, holdingFor: 150 * ms), offsets: [17, 27, 22], activeLow: [false, false, true])
        waitFor("a short push muted") { muted() == true }
        tuning.rest(1_000 * ms)
        try sim.play(tuning.turn(2, every: 150 * ms), offsets: [17, 27], activeLow: [false, false], minimumLineGap: 3 * ms)
        waitFor("a plain turn moved the needle") { (needle() ?? start) != start }
        XCTAssertEqual(volume(), 61)
        XCTAssertEqual(daemon.terminate(), 0, "it stops cleanly and releases the lines")
        withExtendedLifetime(sim) {}  // the chip goes only after the daemon
    }
}
