import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// The player against a real Icecast2 fed by ffmpeg, into a real alsa-lib `file` PCM.
final class PlayerIcecastTests: XCTestCase {
    private var icecast: IcecastServer!

    override func setUpWithError() throws {
        icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30))
    }

    override func tearDown() {
        icecast.stop()
    }

    private func makePlayer(_ name: String) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers), logger: logger)
        return (player, PlayerRecorder(player), capture.file)
    }

    func testPlaysTheToneAndTitlesAsTheyChange() throws {
        try icecast.setTitle("Tone Artist - Première")
        let (player, recorder, file) = makePlayer("icecast")
        player.play(PlayableStation(id: "ice", name: "Ice", url: icecast.url))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.titles.contains("Tone Artist - Première") }, "\(recorder.titles)")
        XCTAssertEqual(recorder.statuses.last?.streamName, "Wavedial Test Radio")
        try icecast.setTitle("Tone Artist - Second & Last")
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.titles.last == "Tone Artist - Second & Last" }, "\(recorder.titles)")
        player.shutdown()
        let samples = AlsaCapture.samples(in: file)
        XCTAssertGreaterThan(samples.count / 2, 44100, "the burst and the live audio reached ALSA")
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 5)
        XCTAssertLessThan(PCMAnalysis.longestSilence(samples, channels: 2), 441, "no gap over 10 ms")
    }

    func testSoundComesBackAfterIcecastIsKilledAndRestarted() throws {
        let (player, recorder, file) = makePlayer("icecast-restart")
        player.play(PlayableStation(id: "ice", name: "Ice", url: icecast.url))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        Thread.sleep(forTimeInterval: 0.5)
        icecast.killIcecast()
        // The unpaced capture sink drains the buffer at once, so the player has run dry.
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0 == .buffering }, "\(recorder.states)")
        let framesBeforeRestart = AlsaCapture.samples(in: file).count / 2
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(try icecast.startIcecastAndWaitForMount(timeout: 10), "icecast came back")
        let mountBack = Date()
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "sound back within 5 s: \(recorder.states)")
        XCTAssertLessThan(Date().timeIntervalSince(mountBack), 5)
        // A second of new audio reaches the capture: the server's burst at once here, later under qemu-user.
        let deadline = Date().addingTimeInterval(10)
        while AlsaCapture.samples(in: file).count / 2 <= framesBeforeRestart + 44100 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        player.shutdown()
        let samples = AlsaCapture.samples(in: file)
        XCTAssertGreaterThan(samples.count / 2, framesBeforeRestart + 44100, "new audio after the restart")
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 5)
    }
}
