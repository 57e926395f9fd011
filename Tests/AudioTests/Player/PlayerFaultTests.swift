import CurlSupport
import Threads
import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// The player against a server that misbehaves on purpose (`Fixtures/misbehaving_server.py`),
/// playing into a real alsa-lib `file` PCM.
final class PlayerFaultTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// `allowed`: the addresses stations may reach past the catalog's address policy (the server's loopback).
    private func makePlayer(_ name: String, startTimeout: Double = 3, stall: Double = 3, timeShift: Double = 300,
                            allowed: [IPNetwork] = IPNetwork.loopback, clock: PlayerClock = MonotonicClock()) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device),
                                      source: StreamSourceSettings(connectTimeout: 2, stallTimeout: stall, allowedAddresses: allowed),
                                      timeShiftSeconds: timeShift, startTimeout: startTimeout)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: settings, logger: logger, clock: clock)
        return (player, PlayerRecorder(player), capture.file)
    }

    private func station(_ path: String) -> PlayableStation {
        PlayableStation(id: path, name: path, url: server.url(path))
    }

    func testICY200OKPlaysTheToneWithTitlesAndNoGaps() throws {
        let (player, recorder, file) = makePlayer("icy")
        player.play(station("/icy.mp3?speed=2"))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "states: \(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.titles.count >= 2 }, "titles: \(recorder.titles)")
        XCTAssertEqual(Array(recorder.titles.prefix(2)), ["Fixture - Song 1", "Fixture - Song 2"])
        XCTAssertEqual(recorder.statuses.last?.streamName, "Fixture FM")
        XCTAssertEqual(recorder.tracks.first?.station.url, server.url("/icy.mp3?speed=2"))
        // The titles come before the audio around them is written: wait for the burst itself.
        let burstWritten = recorder.wait(timeout: 20) { _ in AlsaCapture.samples(in: file).count / 2 > 44100 * 4 }
        player.shutdown()
        let samples = AlsaCapture.samples(in: file)
        XCTAssertTrue(burstWritten, "at least the 4 s burst reached ALSA: \(samples.count / 2) frames; \(recorder.states)")
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 5)
        XCTAssertLessThan(PCMAnalysis.longestSilence(samples, channels: 2), 441, "no gap over 10 ms")
        XCTAssertEqual(Array(recorder.states.prefix(1)), [.idle])
        XCTAssertTrue(recorder.states.contains(.connecting))
    }

    func testHTTPErrorsAndRedirectLoopsAreStationOffline() {
        for path in ["/notfound", "/error", "/loop"] {
            let (player, recorder, _) = makePlayer("offline", startTimeout: 1.5)
            player.play(station(path))
            XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(path): \(recorder.states)")
            XCTAssertEqual(recorder.failureCode, .stationOffline, path)
            player.shutdown()
        }
    }

    func testRefusedConnectionIsStationOffline() {
        let (player, recorder, _) = makePlayer("refused", startTimeout: 1)
        player.play(PlayableStation(id: "dead", name: "dead", url: "http://127.0.0.1:\(server.deadPort)/live"))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(recorder.states)")
        XCTAssertEqual(recorder.failureCode, .stationOffline)
        player.shutdown()
    }

    func testNoNetworkKeepsTryingPastTheStartTimeout() {
        // TCP refuses to connect to a multicast address with ENETUNREACH before sending anything: the
        // kernel's own "network unreachable", without leaving the machine. The address policy refuses
        // multicast before the kernel would: this test allows that one address to reach the kernel.
        let clock = ManualClock()
        let (player, recorder, _) = makePlayer("nonetwork", startTimeout: 5, allowed: [IPNetwork("224.0.0.1/32")!], clock: clock)
        player.play(PlayableStation(id: "unreachable", name: "unreachable", url: "http://224.0.0.1:9/live"))
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.statuses.last?.connectionStage?.description == "Retrying (No network)…" },
                      "\(recorder.statuses)")
        XCTAssertEqual(player.status.state, .connecting, "within the start timeout: still connecting")
        clock.advance(by: 5)
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isFailed }, "\(recorder.states)")
        clock.advance(by: 600)
        Thread.sleep(forTimeInterval: 0.3)  // the audio thread looks at the clock every 20 ms: a chance to give up
        guard case .failed(let failure, let willRetry) = player.status.state else {
            return XCTFail("\(recorder.states)")
        }
        XCTAssertEqual(failure.code, .noNetwork)
        XCTAssertTrue(willRetry, "no network is not the station's fault: the player keeps trying")
        XCTAssertFalse(recorder.states.contains { if case .failed(_, false) = $0 { return true } else { return false } },
                       "\(recorder.states)")
        player.shutdown()
    }

    func testUnsupportedFormatsFailAtOnceWithoutNoise() {
        for path in ["/wma", "/video.m3u8", "/page.html"] {
            let (player, recorder, file) = makePlayer("unsupported")
            player.play(station(path))
            XCTAssertTrue(recorder.waitForState(timeout: 2) { $0.isFailed }, "\(path): \(recorder.states)")
            XCTAssertEqual(recorder.failureCode, .formatNotSupported, path)
            player.shutdown()
            XCTAssertTrue(AlsaCapture.samples(in: file).isEmpty, "\(path) must not reach ALSA")
        }
    }

    func testPlaylistsTryEachEntryUntilOnePlays() {
        for path in ["/list.pls", "/list.m3u"] {
            let (player, recorder, _) = makePlayer("playlist")
            player.play(station(path))
            XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(path): \(recorder.states)")
            player.shutdown()
        }
        let (player, recorder, _) = makePlayer("deadlist", startTimeout: 1.5)
        player.play(station("/dead.m3u"))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(recorder.states)")
        XCTAssertEqual(recorder.failureCode, .stationOffline)
        player.shutdown()
    }

    func testGarbageBetweenFramesIsSkipped() {
        let (player, recorder, file) = makePlayer("garbage")
        player.play(station("/garbage.mp3?speed=4"))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        Thread.sleep(forTimeInterval: 1)
        player.shutdown()
        let samples = AlsaCapture.samples(in: file)
        XCTAssertGreaterThan(samples.count / 2, 44100 * 3)
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 20)
    }

    func testHugeAndMalformedMetadataKeepsAudioAndBoundsTitles() {
        let (player, recorder, file) = makePlayer("hugemeta")
        player.play(station("/hugemeta.mp3?speed=4"))
        XCTAssertTrue(recorder.wait(timeout: 6) { !$0.titles.isEmpty }, "\(recorder.states)")
        player.shutdown()
        let title = recorder.titles[0]
        XCTAssertTrue(title.hasPrefix("Huge xxx"))
        XCTAssertLessThanOrEqual(title.count, ICYMetadataParser.maximumValueLength)
        let samples = AlsaCapture.samples(in: file)
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 5)
        XCTAssertLessThan(PCMAnalysis.longestSilence(samples, channels: 2), 441)
    }

    func testStallAndResetReconnectByThemselves() {
        for path in ["/stall.mp3", "/reset.mp3"] {
            let (player, recorder, file) = makePlayer("reconnect", stall: 1)
            player.play(station(path))
            XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(path): \(recorder.states)")
            // Each connection brings the 64 KB before the live position: 4 s of audio at first, then what the
            // live position moved on (the repeated rest is skipped). 3 s more than the first burst means reconnects.
            let reconnected = recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: file).count / 2 > 44100 * 7 }
            XCTAssertTrue(reconnected, "\(path): \(AlsaCapture.samples(in: file).count / 2) frames; \(recorder.states)")
            XCTAssertFalse(recorder.states.contains { $0.isFailed && $0 != recorder.states.last }, "\(path)")
            player.shutdown()
        }
    }

    func testReconnectToALiveServerContinuesWithoutRepeatingItsBurst() {
        let (player, recorder, file) = makePlayer("splice")
        let started = Date()
        // Every connection is cut after 100 kB, of which the first 64 kB repeat what the last one sent.
        player.play(station("/live.mp3?speed=2&drop=100000"))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        Thread.sleep(forTimeInterval: 6)
        player.shutdown()
        let elapsed = Date().timeIntervalSince(started)
        let seconds = Double(AlsaCapture.samples(in: file).count / 2) / 44100
        let live = elapsed * 2
        // One burst (4 s) plus the live audio; a repeated burst per reconnect would add about 4 s each (5 or more).
        XCTAssertGreaterThan(seconds, live - 1, "the stream went on across reconnects")
        XCTAssertLessThan(seconds, 4.2 + live + 1, "nothing was heard twice")
        XCTAssertEqual(PCMAnalysis.frequency(AlsaCapture.samples(in: file), channels: 2, sampleRate: 44100), 440, accuracy: 5)
        XCTAssertLessThan(PCMAnalysis.longestSilence(AlsaCapture.samples(in: file), channels: 2), 441)
    }

    func testTrickleTimesOut() {
        let clock = ManualClock()
        let (player, recorder, _) = makePlayer("trickle", startTimeout: 2, clock: clock)
        player.play(station("/trickle.mp3"))
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.statuses.contains { $0.state == .buffering || $0.connectionStage == .waitingForAudio } },
                      "the server answered: \(recorder.statuses)")
        XCTAssertFalse(recorder.states.contains { $0.isFailed }, "the start timeout has not passed: \(recorder.states)")
        clock.advance(by: 2)
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isFailed }, "\(recorder.states)")
        XCTAssertEqual(recorder.failureCode, .timedOut)
        player.shutdown()
    }

    func testPauseResumesWhereItPausedThenPastTheBoundGoesLive() {
        let (player, recorder, _) = makePlayer("timeshift")
        player.play(station("/ok.mp3?speed=2"))
        XCTAssertTrue(recorder.wait(timeout: 8) { $0.titles.count >= 4 }, "\(recorder.titles)")
        player.pause()
        XCTAssertTrue(recorder.waitForState(timeout: 2) { $0 == .paused })
        let atPause = recorder.titles.count
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(recorder.titles.count, atPause, "nothing is heard while paused")
        player.resume()
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.titles.count >= atPause + 4 }, "\(recorder.titles)")
        let numbers = recorder.titles.compactMap { Int($0.split(separator: " ").last!) }
        XCTAssertEqual(numbers, Array(numbers[0]..<(numbers[0] + numbers.count)), "time-shift skips no title")
        player.shutdown()

        let (live, liveRecorder, _) = makePlayer("timeshift-bound", timeShift: 1)
        live.play(station("/ok.mp3?speed=2"))
        XCTAssertTrue(liveRecorder.wait(timeout: 8) { $0.titles.count >= 4 })
        live.pause()
        XCTAssertTrue(liveRecorder.waitForState(timeout: 2) { $0 == .paused })
        Thread.sleep(forTimeInterval: 3)
        live.resume()
        let before = liveRecorder.titles.count
        XCTAssertTrue(liveRecorder.wait(timeout: 5) { $0.titles.count >= before + 1 })
        let liveNumbers = liveRecorder.titles.compactMap { Int($0.split(separator: " ").last!) }
        XCTAssertGreaterThan(liveNumbers[before] - liveNumbers[before - 1], 2, "past the bound, resume is live: \(liveNumbers)")
        live.shutdown()
    }

    func testHammeringSwitchesLeaksNoThreadsOrSockets() {
        let (player, recorder, _) = makePlayer("switch")
        player.play(station("/ok.mp3?speed=2"))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying })
        Thread.sleep(forTimeInterval: 0.5)
        let threads = Self.count("/proc/self/task")
        let descriptors = Self.count("/proc/self/fd")
        for index in 0..<30 {
            player.play(station(index % 3 == 0 ? "/stall.mp3" : "/ok.mp3?speed=2&n=\(index)"))
            Thread.sleep(forTimeInterval: 0.02)
        }
        player.play(station("/ok.mp3?speed=2"))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying })
        let settled = recorder.wait(timeout: 5) { _ in
            Self.count("/proc/self/task") <= threads + 1 && Self.count("/proc/self/fd") <= descriptors + 1
        }
        XCTAssertTrue(settled, "threads \(threads) → \(Self.count("/proc/self/task")), fds \(descriptors) → \(Self.count("/proc/self/fd"))")
        player.shutdown()
    }

    private static func count(_ directory: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? 0
    }
}
