import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// Warm stations (``Player/warm(_:budgetKbps:)``) against three real Icecast2 servers, one tone each
/// (a: 440 Hz, b: 880 Hz, c: 660 Hz), into a real alsa-lib `file` PCM. What reaches a server is read
/// from its own statistics: listeners now and listener connections taken since it started.
final class PlayerWarmTests: XCTestCase {
    private struct Station {
        let server: IcecastServer
        let station: PlayableStation
        var listeners: Int { (try? server.listenerCounts().listeners) ?? -1 }
        var connections: Int { (try? server.listenerCounts().connections) ?? -1 }
    }

    nonisolated(unsafe) private static var servers: [IcecastServer] = []
    private var a: Station!
    private var b: Station!
    private var c: Station!

    override class func setUp() {
        servers = [440, 880, 660].compactMap { try? IcecastServer(source: TestMedia.tone(frequency: $0, seconds: 30)) }
    }

    override class func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
    }

    override func setUpWithError() throws {
        guard Self.servers.count == 3 else { throw FixtureError("three icecast servers did not come up") }
        let stations = zip(["a", "b", "c"], Self.servers).map { Station(server: $1, station: PlayableStation(id: $0, name: $0, url: $1.url)) }
        (a, b, c) = (stations[0], stations[1], stations[2])
    }

    private func makePlayer(_ name: String, warm: WarmSettings = WarmSettings()) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers, warm: warm)
        let player = Player(settings: settings, logger: logger)
        return (player, PlayerRecorder(player), capture.file)
    }

    private func waitFor(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    /// This process's threads named `wd-net` (one a station session, warm ones included).
    private var networkThreads: Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) == "wd-net\n" }.count
    }

    /// The statuses in short (station:state), for failure messages.
    private func trail(_ recorder: PlayerRecorder) -> String {
        recorder.statuses.map { "\($0.station?.id ?? "-"):\($0.state)" }.joined(separator: " ")
    }

    private func playing(_ recorder: PlayerRecorder, _ id: String) -> Bool {
        recorder.statuses.last.map { $0.station?.id == id && $0.state == .playing } ?? false
    }

    func testTuningToAWarmStationPlaysItsLiveEdgeAtOnceWithoutANewConnection() throws {
        let (player, recorder, file) = makePlayer("warm-tune")
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        player.warm([b.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 }, "b is connected while a plays")
        // The burst (about 4 s) and 8 s of live audio arrive; a warm station keeps the latest 5 s of them.
        Thread.sleep(forTimeInterval: 8)
        let connections = b.connections
        let framesBefore = AlsaCapture.samples(in: file).count / 2
        let tuned = Date()
        player.play(b.station)
        XCTAssertTrue(recorder.wait(timeout: 5) { self.playing($0, "b") }, trail(recorder))
        // Played ahead of the clock: more audio than the time since the tune, so it came from b's buffer
        // (the unpaced capture takes it as fast as it decodes, which under emulation is not at once).
        let ahead = { Double(AlsaCapture.samples(in: file).count / 2 - framesBefore) / 44100 - Date().timeIntervalSince(tuned) }
        let deadline = Date().addingTimeInterval(5)
        while ahead() < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertGreaterThan(ahead(), 2.5, "b's buffer played ahead of the clock")
        XCTAssertEqual(b.connections, connections, "no new request to b's mount when it was tuned")
        player.shutdown()
        XCTAssertFalse(recorder.statuses.contains { $0.station?.id == "b" && $0.state == .connecting },
                       "b never waited for a connection: \(trail(recorder))")
        let samples = Array(AlsaCapture.samples(in: file).dropFirst(framesBefore * 2))
        let seconds = Double(samples.count / 2) / 44100
        // Its 5 s came at the tune, not the 12 s it was sent.
        XCTAssertLessThan(seconds - Date().timeIntervalSince(tuned), 8, "from the live edge: the latest 5 s kept, not all b sent")
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 880, accuracy: 10)
    }

    func testThePreviouslyPlayingStationStaysWarmWhenStillWanted() throws {
        let (player, recorder, file) = makePlayer("warm-back")
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        player.warm([a.station, b.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 })
        Thread.sleep(forTimeInterval: 1)
        let (toA, toB) = (a.connections, b.connections)
        player.play(b.station)
        XCTAssertTrue(recorder.wait(timeout: 5) { self.playing($0, "b") }, trail(recorder))
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(a.listeners, 1, "a stays connected, warm")
        let framesBefore = AlsaCapture.samples(in: file).count / 2
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 5) { self.playing($0, "a") }, trail(recorder))
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(a.connections, toA, "back to a without a new request")
        XCTAssertEqual(b.connections, toB)
        player.shutdown()
        // The last second: the capture takes a's kept buffer at once, after whatever b wrote meanwhile.
        let samples = Array(AlsaCapture.samples(in: file).dropFirst(framesBefore * 2).suffix(44100 * 2))
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 10)
    }

    func testStationsOverTheBudgetAreNotConnected() throws {
        let (player, recorder, _) = makePlayer("warm-budget")
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        let toC = c.connections
        // Unknown bitrates count as 128 kbit/s: b fits in 128, c would take the warm ones past it.
        player.warm([b.station, c.station], budgetKbps: 128)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 }, "b is warmed")
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(c.connections, toC, "c, over the budget, is not connected")
        player.warm([b.station, c.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { c.listeners == 1 }, "within a budget for two, c is warmed too")
        XCTAssertEqual(a.listeners, 1)
        player.shutdown()
    }

    func testWarmStationsAreDroppedWhenThePlayerIsPausedOrStoppedPastTheIdleTime() throws {
        let (player, recorder, _) = makePlayer("warm-idle", warm: WarmSettings(idleSeconds: 1))
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        player.warm([b.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 })
        player.pause()
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 0 }, "paused past the idle time: b dropped")
        XCTAssertEqual(a.listeners, 1, "the paused station keeps recording")
        player.resume()
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 }, "playing again: b warmed again")
        player.stop()
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 0 && a.listeners == 0 }, "stopped past the idle time: all dropped")
        player.shutdown()
    }

    func testReplacedAndCancelledWarmSessionsLeaveNoThreadsOrConnections() throws {
        // Threads of the tests before may still be ending.
        _ = waitFor(timeout: 5) { self.networkThreads == 0 }
        let baseline = networkThreads
        let (player, recorder, _) = makePlayer("warm-cancel")
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        player.warm([b.station, c.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 && c.listeners == 1 })
        XCTAssertTrue(waitFor(timeout: 5) { self.networkThreads == baseline + 3 }, "a, b and c: \(networkThreads - baseline)")
        let toC = c.connections
        player.warm([c.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 0 }, "b no longer wanted: its connection closed")
        XCTAssertTrue(waitFor(timeout: 5) { self.networkThreads == baseline + 2 }, "and its thread ended")
        XCTAssertEqual(c.listeners, 1)
        XCTAssertEqual(c.connections, toC, "c, still wanted, kept its connection")
        player.warm([], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { c.listeners == 0 })
        XCTAssertTrue(player.shutdown(), "every thread ended in time")
        XCTAssertTrue(waitFor(timeout: 5) { self.networkThreads == baseline }, "no session thread left")
        XCTAssertTrue(waitFor(timeout: 10) { a.listeners == 0 })
    }

    func testAWarmStationThatFailsIsDroppedQuietly() throws {
        let (player, recorder, _) = makePlayer("warm-dead")
        player.play(a.station)
        XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, trail(recorder))
        let dead = PlayableStation(id: "dead", name: "Dead", url: "http://127.0.0.1:\(freeLoopbackPort())/gone.mp3")
        player.warm([dead, b.station], budgetKbps: 256)
        XCTAssertTrue(waitFor(timeout: 10) { b.listeners == 1 })
        Thread.sleep(forTimeInterval: 2)
        player.shutdown()
        XCTAssertFalse(recorder.statuses.contains { $0.state.isFailed || ($0.station.map { $0.id != "a" } ?? false) }, trail(recorder))
    }

    /// An Ogg or FLAC stream cut at its live edge decodes only after its header pages: the warm station
    /// kept them and plays them first.
    func testWarmOggStationsPlayFromTheirLiveEdgeWithTheirHeaders() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["WAVEDIAL_QEMU_USER"] != nil,
                      "qemu-user artifact: emulated Ogg decoding is slower than the real-time waits")
        for (codec, rate) in [(IcecastServer.Codec.opus, 48000), (.vorbis, 44100), (.flac, 44100)] {
            let server = try IcecastServer(source: try TestMedia.tone(frequency: 880, seconds: 30), codec: codec)
            defer { server.stop() }
            let station = PlayableStation(id: codec.rawValue, name: codec.rawValue, url: server.url)
            let (player, recorder, file) = makePlayer("warm-\(codec)")
            player.play(a.station)
            XCTAssertTrue(recorder.wait(timeout: 10) { self.playing($0, "a") }, "\(codec): \(trail(recorder))")
            player.warm([station], budgetKbps: 1000)
            XCTAssertTrue(waitFor(timeout: 10) { (try? server.listenerCounts().listeners) == 1 }, "\(codec) warmed")
            // More than the warm buffer arrives: what is kept starts in the middle of a page.
            Thread.sleep(forTimeInterval: 8)
            let connections = try server.listenerCounts().connections
            let framesBefore = AlsaCapture.samples(in: file).count / 2
            player.play(station)
            XCTAssertTrue(recorder.wait(timeout: 5) { self.playing($0, codec.rawValue) }, "\(codec): \(trail(recorder))")
            Thread.sleep(forTimeInterval: 1)
            player.shutdown()
            XCTAssertEqual(try server.listenerCounts().connections, connections, "\(codec): no new request")
            // A device re-opened at another rate (Opus: 48 kHz) starts the capture file again.
            let captured = AlsaCapture.samples(in: file)
            let samples = rate == 44100 ? Array(captured.dropFirst(framesBefore * 2)) : captured
            XCTAssertGreaterThan(samples.count / 2, rate, "\(codec): its buffer played")
            XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: rate), 880, accuracy: 10, "\(codec)")
        }
    }
}
