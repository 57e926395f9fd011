import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// `[audio] mixer = "hardware"` through the real daemon and `wavedial doctor`: a control that cannot be
/// used stops the start with the card's volume controls named; one that can is set from the saved volume
/// at every start and by `wavedial volume`. The card is the kernel's snd-dummy in the gpio-vm guest
/// (scripts/test.d/gpio-vm), read back with `amixer`; a card that does not exist is tested anywhere.
final class DaemonMixerGuestTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var socketPath = ""

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
    }

    override func tearDown() {
        unlink(socketPath)
        directory.remove()
    }

    /// A config whose catalog server is never reached (no station is played here).
    private func config(control: String, device: String) throws -> String {
        var config = RadioConfigFile(directory: directory, servers: ["http://127.0.0.1:9"], socket: socketPath)
        config.audio = ["mixer = \"hardware\"", "mixer_control = \"\(control)\"", "mixer_device = \"\(device)\""]
        config.extra = "[display]\ndriver = \"none\"\n[hardware]\nbackend = \"simulated\""
        let path = directory.path("config.toml")
        try config.write(to: path)
        return path
    }

    private func start(_ path: String) throws -> DaemonProcess {
        try DaemonProcess(configPath: path, socketPath: socketPath, logPath: directory.path("daemon-\(UUID().uuidString.prefix(4)).log"))
    }

    /// The doctor's mixer finding.
    private func doctorMixer(_ path: String) throws -> [String: Any]? {
        let findings = try CLIRunner().run("--config", path, "doctor", "--json").json() as? [[String: Any]]
        return findings?.first { $0["check"] as? String == "mixer" }
    }

    func testACardThatDoesNotOpenStopsTheStartAndTheDoctorSaysSo() throws {
        let path = try config(control: "Master", device: "hw:31")
        let daemon = try start(path)
        XCTAssertEqual(daemon.waitForExit(timeout: 60), 1, daemon.log)
        XCTAssertTrue(daemon.log.contains("mixer device 'hw:31' does not open"), daemon.log)
        let finding = try XCTUnwrap(try doctorMixer(path))
        XCTAssertEqual(finding["ok"] as? Bool, false)
        XCTAssertTrue((finding["detail"] as? String ?? "").contains("hw:31"), "\(finding)")
    }

    private func amixerDecibels() throws -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/amixer")
        process.arguments = ["-D", "hw:0", "sget", "Master"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("Front Left"), let end = line.range(of: "dB]"),
                  let open = line[..<end.lowerBound].lastIndex(of: "[") else { return nil }
            return Double(line[line.index(after: open)..<end.lowerBound])
        }.first
    }

    private func setAmixer(_ value: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/amixer")
        process.arguments = ["-q", "-D", "hw:0", "sset", "Master", value]
        try process.run()
        process.waitUntilExit()
    }

    func testOnTheDummyCardAMissingControlIsNamedAndARealOneFollowsTheVolumeAcrossRestarts() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs the kernel's snd-dummy: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let missing = try config(control: "Digital", device: "hw:0")
        let refused = try start(missing)
        XCTAssertEqual(refused.waitForExit(timeout: 90), 1, refused.log)
        for name in ["'Digital'", "\"Master\"", "\"Synth\"", "\"CD\""] {
            XCTAssertTrue(refused.log.contains(name), "\(name) in: \(refused.log)")
        }
        let finding = try XCTUnwrap(try doctorMixer(missing))
        XCTAssertEqual(finding["ok"] as? Bool, false)
        XCTAssertTrue((finding["detail"] as? String ?? "").contains("\"Master\""), "\(finding)")

        let path = try config(control: "Master", device: "hw:0")
        XCTAssertEqual(try doctorMixer(path)?["ok"] as? Bool, true)
        var cli = CLIRunner()
        cli.environment["WAVEDIAL_CONFIG"] = path
        let daemon = try start(path)
        XCTAssertTrue(daemon.waitUntilReady(timeout: 90), daemon.log)
        XCTAssertEqual(try cli.run("volume", "50").status, 0)
        XCTAssertEqual(try amixerDecibels() ?? 0, -12.04, accuracy: 0.15, "50 %: 12 dB below the maximum")
        XCTAssertEqual(try cli.run("volume", "90").status, 0)
        XCTAssertEqual(try amixerDecibels() ?? 0, -1.83, accuracy: 0.15)
        XCTAssertEqual(daemon.terminate(timeout: 30), 0, daemon.log)

        // Someone else turns the card up meanwhile; the radio's own volume comes back at the start.
        try setAmixer("100%")
        XCTAssertEqual(try amixerDecibels(), 0)
        let again = try start(path)
        XCTAssertTrue(again.waitUntilReady(timeout: 90), again.log)
        XCTAssertEqual(try amixerDecibels() ?? 0, -1.83, accuracy: 0.15, "the saved 90 % set again")
        XCTAssertEqual(again.terminate(timeout: 30), 0, again.log)
    }
}
