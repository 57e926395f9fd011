import Foundation
import Logging
import WavedialTestSupport
import XCTest
@testable import Audio

/// The alarm's tone through the real player into alsa-lib's `file` PCM, with no station and no network:
/// beeps at 880 Hz in real time, following the volume, gone when it is ended.
final class PlayerAlarmToneTests: XCTestCase {
    func testTheToneBeepsAt880HzWithoutAStationAndStops() throws {
        let capture = AlsaCapture.device(named: "alarm-tone")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device)), logger: logger)
        defer { player.shutdown() }
        func frames() -> Int { AlsaCapture.samples(in: capture.file).count / 2 }
        func waitFor(frames wanted: Int) {
            let deadline = Date(timeIntervalSinceNow: 15)
            while frames() < wanted && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            XCTAssertGreaterThanOrEqual(frames(), wanted, "the tone keeps coming")
        }
        player.volume = 1
        player.soundAlarmTone(true)
        waitFor(frames: 3 * 44_100)
        let loud = AlsaCapture.samples(in: capture.file)
        XCTAssertEqual(PCMAnalysis.frequency(loud, channels: 2, sampleRate: 44_100), AlarmTone.frequency, accuracy: 5)
        XCTAssertGreaterThan(loud.map { abs(Int($0)) }.max() ?? 0, 10_000, "loud: -6 dBFS at full volume")
        // Quieter with the volume (the beeps and their rests: compare peaks).
        player.volume = 0.5
        let start = frames()
        waitFor(frames: start + 3 * 44_100)
        let quiet = Array(AlsaCapture.samples(in: capture.file).dropFirst((start + 44_100) * 2))
        let peak = quiet.map { abs(Int($0)) }.max() ?? 0
        XCTAssertLessThan(peak, 6_000, "a quarter of the gain at half the volume")
        XCTAssertGreaterThan(peak, 2_000)
        player.soundAlarmTone(false)
        Thread.sleep(forTimeInterval: 0.5)
        let ended = frames()
        Thread.sleep(forTimeInterval: 1)
        let after = Array(AlsaCapture.samples(in: capture.file).dropFirst(ended * 2))
        XCTAssertLessThanOrEqual(after.map { abs(Int($0)) }.max() ?? 0, 64, "silent once ended")
    }
}
