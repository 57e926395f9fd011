import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// A pause and its resume through the player, from the misbehaving server's `/file` route into a real
/// alsa-lib `file` PCM: the time-shift resumes at the sample the fade-out ended on.
final class PlayerPauseTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// The tone's period in frames: 440 Hz at 44.1 kHz, not a whole number, so a lost run of samples shows as
    /// a shift of its zero crossings (unless it is within a frame of a whole number of periods).
    private static let period = 44100.0 / 440

    func testAResumedPauseLosesNoAudio() throws {
        let file = try TestMedia.tone(.adts, frequency: 440, seconds: 20)
        let size = FileManager.default.contents(atPath: file.path)?.count ?? 0
        let path = file.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? file.path
        // Paced: at the pause the ring holds what the stream sent ahead, as it does on a device.
        let capture = AlsaCapture.pacedDevice(named: "pause-resume")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers)
        let player = Player(settings: settings, logger: logger)
        let recorder = PlayerRecorder(player)
        let url = server.url("/file?path=\(path)&type=audio/aac&bps=\(max(1, size / 20))")
        player.play(PlayableStation(id: "p", name: "p", url: url))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture.file).count / 2 > 44100 * 3 })

        player.pause()
        XCTAssertTrue(recorder.waitForState(timeout: 3) { $0 == .paused }, "\(recorder.states)")
        // The fade-out is written and the device played out: what the capture holds now is all before the pause.
        var paused = AlsaCapture.samples(in: capture.file).count / 2
        XCTAssertTrue(recorder.wait(timeout: 3) { _ in
            Thread.sleep(forTimeInterval: 0.3)
            let now = AlsaCapture.samples(in: capture.file).count / 2
            defer { paused = now }
            return now == paused
        })
        Thread.sleep(forTimeInterval: 1)
        player.resume()
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in AlsaCapture.samples(in: capture.file).count / 2 > paused + 44100 * 2 })
        player.shutdown()

        let samples = AlsaCapture.samples(in: capture.file)
        let fade = Int(settings.fadeSeconds * 44100) + 441
        let before = Self.risingZeroCrossings(samples, frames: (paused - fade - 4410)..<(paused - fade))
        let after = Self.risingZeroCrossings(samples, frames: (paused + fade)..<(paused + fade + 4410))
        XCTAssertGreaterThan(before.count, 40, "the tone plays before the pause")
        XCTAssertGreaterThan(after.count, 40, "the tone plays after the resume")
        guard let last = before.last, !after.isEmpty else { return }
        // Lossless, the crossings after the resume fall on the same grid of periods as those before it.
        let shifts = after.map { crossing -> Double in
            let periods = (crossing - last) / Self.period
            return (periods - periods.rounded()) * Self.period
        }
        // A crossing moves by a few tenths of a frame with the codec's noise; a lost run of samples moves them all.
        let median = shifts.map(abs).sorted()[shifts.count / 2]
        XCTAssertLessThan(median, 1, "the tone after the resume continues where the fade-out ended: shifted by \(shifts.prefix(3)) frames")
    }

    /// The frames (fractional, linearly interpolated) where channel 0 of stereo `samples` rises through zero.
    private static func risingZeroCrossings(_ samples: [Int16], frames: Range<Int>) -> [Double] {
        let range = max(frames.lowerBound, 1)..<min(frames.upperBound, samples.count / 2)
        return range.compactMap { frame in
            let previous = Double(samples[(frame - 1) * 2]), current = Double(samples[frame * 2])
            guard previous < 0, current >= 0 else { return nil }
            return Double(frame - 1) + -previous / (current - previous)
        }
    }
}
