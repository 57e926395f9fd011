import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// Each new format's faults through the player, from the misbehaving server's `/file` route into a
/// real alsa-lib `file` PCM: junk between frames, a chained Ogg boundary, a rate change mid-stream.
final class PlayerFormatFaultTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func makePlayer(_ name: String) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers), logger: logger)
        return (player, PlayerRecorder(player), capture.file)
    }

    /// The file's URL on the server, paced at real time (its bytes over `seconds`) after a 64 KB burst.
    private func url(_ file: URL, type: String, seconds: Int, junk: Bool = false) throws -> String {
        let size = FileManager.default.contents(atPath: file.path)?.count ?? 0
        let path = file.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? file.path
        return server.url("/file?path=\(path)&type=\(type)&bps=\(max(1, size / seconds))\(junk ? "&junk=1" : "")")
    }

    func testADTSWithJunkBetweenFramesPlaysTheTone() throws {
        let file = try TestMedia.tone(.adts, seconds: 20)
        let (player, recorder, capture) = makePlayer("adts-junk")
        player.play(PlayableStation(id: "a", name: "a", url: try url(file, type: "audio/aacp", seconds: 20, junk: true)))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture).count / 2 > 44100 * 3 })
        player.shutdown()
        XCTAssertEqual(PCMAnalysis.frequency(AlsaCapture.samples(in: capture), channels: 2, sampleRate: 44100), 440, accuracy: 5)
    }

    func testAChainedOggBoundaryKeepsPlayingWithTheNewTitleAndNoGap() throws {
        let first = try TestMedia.tone(.vorbis, frequency: 440, seconds: 5, title: "First", artist: "Chain", serial: 11)
        let second = try TestMedia.tone(.vorbis, frequency: 880, seconds: 20, title: "Second", artist: "Chain", serial: 22)
        let chained = try TestMedia.concatenated([first, second], name: "chained-vorbis-440-880-25s.ogg")
        let (player, recorder, capture) = makePlayer("chained-ogg")
        player.play(PlayableStation(id: "c", name: "c", url: try url(chained, type: "application/ogg", seconds: 25)))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 15) { $0.titles.contains("Chain - Second") }, "\(recorder.titles)")
        XCTAssertEqual(Array(recorder.titles.prefix(2)), ["Chain - First", "Chain - Second"])
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture).count / 2 > 44100 * 7 })
        player.shutdown()
        let samples = AlsaCapture.samples(in: capture)
        XCTAssertLessThan(PCMAnalysis.longestSilence(samples, channels: 2), 441, "no gap over 10 ms at the boundary")
        // Half a second at a time: the first stream's tone, then the second's, never anything else.
        let tones = stride(from: 0, to: samples.count - 44100, by: 44100).map {
            (PCMAnalysis.frequency(Array(samples[$0..<($0 + 44100)]), channels: 2, sampleRate: 44100) / 10).rounded() * 10
        }
        XCTAssertEqual(tones.first, 440, "\(tones)")
        XCTAssertEqual(tones.last, 880, "the second stream is heard after the first: \(tones)")
        XCTAssertTrue(tones.allSatisfy { $0 == 440 || $0 == 880 }, "\(tones)")
        XCTAssertFalse(recorder.states.contains { $0.isFailed }, "\(recorder.states)")
    }

    func testARateAndChannelChangeMidStreamReopensTheDeviceAndKeepsTheStation() throws {
        for (encoding, type) in [(TestMedia.Encoding.adts, "audio/aac"), (.vorbis, "application/ogg")] {
            let first = try TestMedia.tone(encoding, frequency: 440, sampleRate: 44100, channels: 2, seconds: 5, serial: 1)
            let second = try TestMedia.tone(encoding, frequency: 440, sampleRate: 22050, channels: 1, seconds: 10, serial: 2)
            let joined = try TestMedia.concatenated([first, second], name: "ratechange-\(encoding).bin")
            let (player, recorder, capture) = makePlayer("ratechange-\(encoding)")
            player.play(PlayableStation(id: "r", name: "r", url: try url(joined, type: type, seconds: 15)))
            XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(encoding): \(recorder.states)")
            // The file PCM starts a new capture when the device is reopened for 22.05 kHz mono.
            Thread.sleep(forTimeInterval: 1)
            XCTAssertTrue(recorder.wait(timeout: 15) { _ in
                let samples = AlsaCapture.samples(in: capture)
                return samples.count > 22050 * 2 && abs(PCMAnalysis.frequency(samples, channels: 1, sampleRate: 22050) - 440) < 5
            }, "\(encoding): the mono 22.05 kHz part plays")
            player.shutdown()
            XCTAssertFalse(recorder.states.contains { $0.isFailed }, "\(encoding): \(recorder.states)")
        }
    }
}
