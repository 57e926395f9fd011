import CurlSupport
import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// A station whose response headers are hostile (`/hostile-headers.mp3` of `Fixtures/misbehaving_server.py`):
/// nothing in them may crash the player or grow without bound; the audio plays as if they were absent.
final class PlayerHostileHeaderTests: XCTestCase {
    func testHugeNumbersManyFieldsAndAHugeNameStillPlayTheTone() throws {
        let server = try MisbehavingServer()
        defer { server.stop() }
        let capture = AlsaCapture.device(named: "hostile-headers")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device),
                                                     source: StreamSourceSettings(allowedAddresses: IPNetwork.loopback)), logger: logger)
        let recorder = PlayerRecorder(player)
        player.play(PlayableStation(id: "hostile", name: "hostile", url: server.url("/hostile-headers.mp3?speed=4")))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        // icy-br 2^63-1 is no bitrate: the buffer is sized from the decoder's measure instead.
        XCTAssertLessThanOrEqual(player.tunedSession?.bytesPerSecond ?? 0, 100 * RingWriter.maximumBytesPerSecond)
        let played = recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture.file).count / 2 > 44100 * 2 }
        player.shutdown()
        XCTAssertTrue(played)
        XCTAssertLessThanOrEqual(recorder.statuses.last?.streamName?.count ?? 0, ICYMetadataParser.maximumValueLength)
        XCTAssertEqual(PCMAnalysis.frequency(AlsaCapture.samples(in: capture.file), channels: 2, sampleRate: 44100), 440, accuracy: 5)
    }
}
