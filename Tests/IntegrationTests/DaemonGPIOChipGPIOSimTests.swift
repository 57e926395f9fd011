import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The appliance started before its GPIO chip exists (a driver or overlay loaded late): the daemon in
/// appliance mode in the gpio-vm guest (scripts/test.d/gpio-vm), the chip made with the kernel's gpio-sim
/// after the start, the knob turned on its simulated lines. The host has no gpio-sim, so this skips there
/// (the missing chip alone is `DaemonDeviceFaultTests`').
final class DaemonGPIOChipGPIOSimTests: XCTestCase {
    private typealias F = StationFixtures

    func testTheKnobWorksOnceTheChipAppearsAndKnobOfflineClears() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs the kernel's gpio-sim: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // One station; its stream is never reached (this row is about the knob): any snap lands on it.
        let station = F.station("00000000-0000-4000-8000-0000000000f3", "Knob FM 94.1", lat: 52.52, lon: 13.40)
        let catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON([station]), directory: directory)
        defer { catalog.stop() }
        let label = GPIOSimChip.uniqueLabel()
        let (device, capture) = AlsaCapture.device(named: "gpio-late")
        defer { try? FileManager.default.removeItem(at: capture) }
        let socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        defer { unlink(socketPath) }
        let configPath = directory.path("config.toml")
        // The default pins (encoder on 17 and 27, push 22, buttons 5, 6, 13, 16, 26), on the chip named by label.
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.audioDevice = device
        config.extra = """
            [hardware]
            chip = "\(label)"
            [display]
            driver = "none"
            """
        try config.write(to: configPath)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        // Stopped at the end; killed by its deinit if the test ends early.
        let daemon = try DaemonProcess(
            configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"),
            extraEnvironment: ["ALSA_CONFIG_PATH": String(cString: getenv("ALSA_CONFIG_PATH"))], modeArguments: [])
        func status() -> [String: Any] { (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:] }
        // The guest is emulated on one CPU: poll slowly (each check starts the CLI), wait generously.
        func waitFor(_ what: String, timeout: TimeInterval = 90, _ condition: () -> Bool) {
            XCTAssertTrue(eventually(timeout: timeout, pollingEvery: 0.5, condition), "\(what); status: \(status()); log: \(daemon.log.suffix(2000))")
        }
        XCTAssertTrue(daemon.waitUntilReady(timeout: 90), daemon.log)
        waitFor("the first-start sync") { (try? WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).stationCount()) == 1 }
        waitFor("Knob offline") { status()["error"] as? String == "Knob offline" }
        XCTAssertNil(status()["station"] as? [String: Any], "nothing tuned yet")

        let sim = try GPIOSimChip(lines: 32, label: label)
        waitFor("the chip taken, the notice cleared") { status()["error"] == nil || status()["error"] is NSNull }
        // Five detents clockwise on the encoder's lines (resting high: pull-up bias), then the knob rests.
        var generator = EncoderSignalGenerator(stepsPerDetent: .four, restLevel: true, bounce: .none, seed: 5)
        try sim.play(generator.turn(5, every: 40_000_000), offsets: [17, 27], activeLow: [false, false], minimumLineGap: 3_000_000)
        waitFor("the knob moved the needle and the station was tuned") {
            (status()["station"] as? [String: Any])?["stationuuid"] as? String == station.stationuuid
        }
        XCTAssertTrue(daemon.log.contains(label), "the missing chip was named in the log")
        XCTAssertEqual(daemon.terminate(), 0, "it stops cleanly and releases the lines")
        withExtendedLifetime(sim) {}  // the chip goes only after the daemon
    }
}
