import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// Every format through the same player: a real Icecast2 mount fed live by ffmpeg (AAC in ADTS, Ogg
/// Opus, Ogg Vorbis, Ogg FLAC), into a real alsa-lib `file` PCM; then Icecast is killed and restarted
/// and the sound comes back by itself (docs/FAULTS.md, a row a format).
final class PlayerFormatsTests: XCTestCase {
    private func play(_ codec: IcecastServer.Codec, rate: Int, title: String?,
                      file line: UInt = #line) throws {
        // Under qemu-user (scripts/test.d/arm64-user) libopus, libvorbis and libFLAC decode slower than the
        // unpaced capture takes the audio, so the lead outlasts these waits; the decoders' own cases run there.
        try XCTSkipIf(codec != .mp3 && codec != .aac && ProcessInfo.processInfo.environment["WAVEDIAL_QEMU_USER"] != nil,
                      "qemu-user artifact: emulated \(codec) decoding is slower than the real-time waits")
        let icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30), codec: codec)
        defer { icecast.stop() }
        let capture = AlsaCapture.device(named: "format-\(codec)")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers), logger: logger)
        let recorder = PlayerRecorder(player)
        player.play(PlayableStation(id: codec.rawValue, name: codec.rawValue, url: icecast.url))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(codec): \(recorder.states)", line: line)
        if let title {
            XCTAssertTrue(recorder.wait(timeout: 5) { $0.titles.contains(title) }, "\(codec): \(recorder.titles)", line: line)
        }
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture.file).count / 2 > rate * 3 },
                      "\(codec): three seconds of audio", line: line)
        let beforeOutage = AlsaCapture.samples(in: capture.file)
        XCTAssertEqual(PCMAnalysis.frequency(beforeOutage, channels: 2, sampleRate: rate), 440, accuracy: 5, "\(codec)", line: line)
        XCTAssertLessThan(PCMAnalysis.longestSilence(beforeOutage, channels: 2), rate / 100, "\(codec): no gap over 10 ms", line: line)
        icecast.killIcecast()
        // The unpaced capture sink drains the buffer at once, so the player runs dry.
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0 == .buffering }, "\(codec): \(recorder.states)", line: line)
        let framesBeforeRestart = AlsaCapture.samples(in: capture.file).count / 2
        XCTAssertTrue(try icecast.startIcecastAndWaitForMount(timeout: 10), "\(codec): icecast came back", line: line)
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(codec): sound back: \(recorder.states)", line: line)
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture.file).count / 2 > framesBeforeRestart + rate },
                      "\(codec): new audio after the restart", line: line)
        player.shutdown()
        let afterOutage = Array(AlsaCapture.samples(in: capture.file).dropFirst(framesBeforeRestart * 2))
        XCTAssertEqual(PCMAnalysis.frequency(afterOutage, channels: 2, sampleRate: rate), 440, accuracy: 5, "\(codec)", line: line)
    }

    func testAACFromAnADTSMount() throws {
        try play(.aac, rate: 44100, title: nil)
    }

    func testOggOpusDecodesAt48kHzWithItsTitle() throws {
        try play(.opus, rate: 48000, title: "Tone Artist - Tone Title")
    }

    func testOggVorbisWithItsTitle() throws {
        try play(.vorbis, rate: 44100, title: "Tone Artist - Tone Title")
    }

    func testOggFLACWithItsTitle() throws {
        try play(.flac, rate: 44100, title: "Tone Artist - Tone Title")
    }
}

/// HLS through the same player: ffmpeg's own live `hls` muxer (MPEG-TS, fMP4, AES-128 segments) served
/// by a real HTTP server on loopback; `check-url`'s probe says it is HLS.
final class PlayerHLSTests: XCTestCase {
    private func play(_ layout: HLSLiveEncoder.Layout, file line: UInt = #line) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let encoder = try HLSLiveEncoder(layout, in: folder.url)
        defer { encoder.stop() }
        try encoder.waitForSegments(3)
        let server = try HLSTestServer(root: folder.url)
        defer { server.stop() }
        let capture = AlsaCapture.device(named: "hls")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers), logger: logger)
        let recorder = PlayerRecorder(player)
        player.play(PlayableStation(id: "hls", name: "hls", url: server.url("live.m3u8")))
        XCTAssertTrue(recorder.waitForState(timeout: 10) { $0.isPlaying }, "\(layout): \(recorder.states)", line: line)
        // Live at real time: a few segments past the first ones buffered.
        XCTAssertTrue(recorder.wait(timeout: 15) { _ in AlsaCapture.samples(in: capture.file).count / 2 > 44100 * 5 },
                      "\(layout): five seconds of audio", line: line)
        player.shutdown()
        let samples = AlsaCapture.samples(in: capture.file)
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 5, "\(layout)", line: line)
        XCTAssertLessThan(PCMAnalysis.longestSilence(samples, channels: 2), 441, "\(layout): no gap over 10 ms at a segment switch",
                          line: line)
        XCTAssertFalse(recorder.states.contains { $0.isFailed }, "\(layout): \(recorder.states)", line: line)

        let probe = StreamProbe.probe(url: server.url("live.m3u8"), settings: PlayerSettings(source: .loopbackPeers), timeout: 10)
        XCTAssertTrue(probe.playable, "\(layout): \(String(describing: probe.failure))", line: line)
        XCTAssertTrue(probe.hls, "\(layout)", line: line)
        XCTAssertEqual(probe.codec, "AAC", "\(layout)", line: line)
        XCTAssertEqual(probe.sampleRate, 44100, "\(layout)", line: line)
        XCTAssertEqual(Double(probe.bitrate ?? 0), 64, accuracy: 16, "\(layout): measured, as ffmpeg encoded it", line: line)
    }

    func testMPEGTSSegments() throws {
        try play(.transportStream)
    }

    func testFMP4Segments() throws {
        try play(.fragmentedMP4)
    }

    func testAES128Segments() throws {
        try play(.encryptedTransportStream)
    }
}
