import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The clock radio end to end: the headless daemon (UTC as its zone), its ALSA output captured, the CLI.
/// `sleep 2s` fades and pauses; an alarm a few seconds ahead starts its station; with its station dead it
/// beeps (the capture holds the tone's 880 Hz); alarms survive a restart of the daemon.
final class DaemonClockTests: XCTestCase {
    private static let live = "00000000-0000-4000-8000-0000000000c1"
    private static let dead = "00000000-0000-4000-8000-0000000000c2"
    private var server: MisbehavingServer?
    private var radio: RadioUnderTest?

    override func setUpWithError() throws {
        let server = try MisbehavingServer()
        self.server = server
        radio = try RadioUnderTest(stations: [.init(uuid: Self.live, name: "Morning FM", url: server.url("/ok.mp3")),
                                              .init(uuid: Self.dead, name: "Gone FM", url: "http://127.0.0.1:\(freeLoopbackPort())/gone.mp3")]) { config in
            config.extra += "\n[sleep]\nfade_seconds = 1\n[alarm]\nfade_in_seconds = 2\nstation_timeout_seconds = 3\n"
        }
    }

    override func tearDown() {
        radio?.stop()
        server?.stop()
    }

    private func start() throws {
        try XCTUnwrap(radio).startDaemon(environment: ["TZ": "UTC"])
    }

    /// The UTC wall time `seconds` from now, as `HH:MM:SS`.
    private func clockTime(in seconds: Int) -> String {
        var time = time_t(Date().timeIntervalSince1970) + seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    private func stationUUID(_ status: [String: Any]) -> String? { (status["station"] as? [String: Any])?["stationuuid"] as? String }

    func testSleepFadesThenPauses() throws {
        let radio = try XCTUnwrap(radio)
        try start()
        let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
        defer { follower.stop() }
        radio.tune(Self.live)
        radio.waitFor("playing") { follower.states.contains("playing") }
        let set = try radio.cli.run("sleep", "2s")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("left"), set.stdout)
        let remaining = radio.status()["sleep_remaining_s"] as? Int
        XCTAssertNotNil(remaining)
        XCTAssertLessThanOrEqual(remaining ?? 99, 2)
        XCTAssertTrue(try radio.cli.run("status").stdout.contains("sleep in "), "the status line says so")
        radio.waitFor("paused by the sleep timer", timeout: 10) { radio.status()["state"] as? String == "paused" }
        XCTAssertTrue(radio.status()["sleep_remaining_s"] is NSNull, "null once it has run out: \(radio.status())")
        XCTAssertEqual(try radio.cli.run("sleep").stdout.trimmingCharacters(in: .whitespacesAndNewlines), "sleep timer off")
        XCTAssertNotEqual(try radio.cli.run("sleep", "soon").status, 0, "a bad duration is refused")
    }

    func testAnAlarmAddedWhileTheDaemonIsDownRingsItsStation() throws {
        let radio = try XCTUnwrap(radio)
        // Straight into the database: no daemon yet.
        let add = try radio.cli.run("alarm", "add", clockTime(in: 8), "--station", "Morning FM")
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stdout.contains("Morning FM"), add.stdout)
        try start()
        XCTAssertNotEqual(radio.status()["next_alarm"] as? String, nil, "the alarm is the next: \(radio.status())")
        // Into the null PCM the player alternates between playing and buffering: follow every state.
        let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
        defer { follower.stop() }
        radio.waitFor("the alarm's station plays", timeout: 25) {
            stationUUID(radio.status()) == Self.live && follower.states.contains("playing")
        }
        XCTAssertNil(radio.status()["alarm_tone"])
    }

    func testAnAlarmWithADeadStationBeepsTheTone() throws {
        let radio = try XCTUnwrap(radio)
        try start()
        let add = try radio.cli.run("alarm", "add", clockTime(in: 3), "--station", Self.dead)
        XCTAssertEqual(add.status, 0, add.stderr)
        radio.waitFor("the tone", timeout: 25) { radio.status()["alarm_tone"] as? Bool == true }
        let frame = radio.capturedFrames
        radio.waitFor("2 s of the tone", timeout: 10) { radio.capturedFrames > frame + 2 * 44_100 }
        let fresh = Array(radio.captured.dropFirst(frame * 2))
        XCTAssertEqual(PCMAnalysis.frequency(fresh, channels: 2, sampleRate: 44_100), 880, accuracy: 10, "the alarm's beeps")
        // Any button (here pause over SSH) stops it.
        XCTAssertEqual(try radio.cli.run("pause").status, 0)
        radio.waitFor("the tone stopped") { radio.status()["alarm_tone"] == nil }
    }

    func testAlarmsSurviveARestart() throws {
        let radio = try XCTUnwrap(radio)
        try start()
        let add = try radio.cli.run("alarm", "add", "06:30", "--days", "mon-fri", "--station", Self.live)
        XCTAssertEqual(add.status, 0, add.stderr)
        let second = try radio.cli.run("alarm", "add", "09:15", "--days", "sat,sun")
        XCTAssertEqual(second.status, 0, second.stderr)
        let id = try XCTUnwrap((try radio.cli.run("alarm", "list", "--json").json() as? [[String: Any]])?.last?["id"] as? Int)
        XCTAssertEqual(try radio.cli.run("alarm", "disable", "\(id)").status, 0)
        _ = radio.daemon?.terminate()
        try start()
        let listed = try XCTUnwrap(try radio.cli.run("alarm", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["time"] as? String }, ["06:30", "09:15"])
        XCTAssertEqual(listed.map { $0["days"] as? String }, ["mon-fri", "sat,sun"])
        XCTAssertEqual(listed.map { $0["enabled"] as? Bool }, [true, false])
        XCTAssertEqual((listed.first?["station"] as? [String: Any])?["name"] as? String, "Morning FM")
        XCTAssertEqual(try radio.cli.run("alarm", "remove", "\(id)").status, 0)
        XCTAssertNotEqual(try radio.cli.run("alarm", "remove", "\(id)").status, 0, "gone")
        XCTAssertEqual(try radio.cli.run("alarm", "add", "25:00").status, 64, "a bad time is a usage error")
    }
}
