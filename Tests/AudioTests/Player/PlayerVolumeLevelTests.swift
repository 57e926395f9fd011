import Foundation
import Logging
import WavedialTestSupport
import XCTest
@testable import Audio

/// The software volume where it is heard: a real Icecast2 tone played into alsa-lib's `file` PCM, the
/// level of the captured PCM before and after a volume change compared in dB.
final class PlayerVolumeLevelTests: XCTestCase {
    /// Root mean square of frames `range` (both channels), in dB full scale.
    private func level(_ samples: [Int16], frames range: Range<Int>) -> Double {
        let slice = samples[(range.lowerBound * 2)..<min(range.upperBound * 2, samples.count)]
        let power = slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(slice.count, 1))
        return 10 * log10(max(power, 1e-12) / (32768.0 * 32768.0))
    }

    /// A volume change is a gain change of 20·log10 of the gains: the software volume is the level squared,
    /// so 100 % → 50 % is −12.04 dB and 50 % → 20 % a further −15.9 dB at the device.
    func testAVolumeChangeMovesThePCMLevelByTheExpectedDecibels() throws {
        let icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30))
        defer { icecast.stop() }
        let capture = AlsaCapture.device(named: "volume-level")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers,
                                      loudnessTarget: nil)
        let player = Player(settings: settings, logger: logger)
        let recorder = PlayerRecorder(player)
        player.play(PlayableStation(id: "tone", name: "Tone", url: icecast.url))
        var changes: [Int] = []
        for volume in [0.5, 0.2] {
            // Two seconds of audio at each level, counted from the capture itself (the null PCM is unpaced).
            let start = (changes.last ?? 0) + 2 * 44100
            XCTAssertTrue(recorder.wait(timeout: 30) { _ in AlsaCapture.samples(in: capture.file).count / 2 >= start },
                          "\(recorder.states)")
            changes.append(AlsaCapture.samples(in: capture.file).count / 2)
            player.volume = volume
        }
        let end = changes[1] + 2 * 44100
        XCTAssertTrue(recorder.wait(timeout: 30) { _ in AlsaCapture.samples(in: capture.file).count / 2 >= end })
        player.shutdown()
        let samples = AlsaCapture.samples(in: capture.file)
        // Half a second after the start and after each change (the fade-in, the 30 ms ramp and what the
        // audio thread held decoded), one second measured.
        let full = level(samples, frames: (changes[0] - 44100)..<changes[0])
        let half = level(samples, frames: (changes[0] + 22050)..<(changes[0] + 66150))
        let fifth = level(samples, frames: (changes[1] + 22050)..<(changes[1] + 66150))
        XCTAssertGreaterThan(full, -30, "the tone reached the device")
        XCTAssertEqual(half - full, 40 * log10(0.5), accuracy: 0.3, "100 % → 50 %")
        XCTAssertEqual(fifth - half, 40 * log10(0.2 / 0.5), accuracy: 0.3, "50 % → 20 %")
    }
}
