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

    /// A volume step is in the next slices the audio thread writes, not after the rest of the decoded chunk
    /// (up to 0.26 s of MP3): counted in writes to a paced device, the volume changed from inside a write.
    func testAVolumeStepReachesTheDeviceWithinThreeWrites() throws {
        let icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30))
        defer { icecast.stop() }
        let output = PeakRecordingOutput()
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(source: .loopbackPeers, loudnessTarget: nil), logger: logger, output: output)
        let recorder = PlayerRecorder(player)
        // Every 40 writes (0.8 s) from the 100th, the volume alternates 50 % and 100 %.
        let changes = [100, 140, 180, 220, 260, 300]
        output.onWrite = { count in
            guard let index = changes.firstIndex(of: count) else { return }
            player.volume = index % 2 == 0 ? 0.5 : 1
        }
        player.play(PlayableStation(id: "tone", name: "Tone", url: icecast.url))
        XCTAssertTrue(recorder.wait(timeout: 40) { _ in output.peaks.count > 310 }, "\(recorder.states)")
        player.shutdown()
        let peaks = output.peaks
        let full = Double(peaks[60..<100].sorted()[20])
        XCTAssertGreaterThan(full, 1000, "the tone reached the device")
        for (index, change) in changes.enumerated() {
            let peak = Double(peaks[change + 3])
            if index % 2 == 0 {
                XCTAssertEqual(peak / full, 0.25, accuracy: 0.03, "write \(change + 3), after 50 % in write \(change): \(peaks[(change - 2)...(change + 8)])")
            } else {
                XCTAssertEqual(peak / full, 1, accuracy: 0.1, "write \(change + 3), after 100 % in write \(change): \(peaks[(change - 2)...(change + 8)])")
            }
        }
    }
}

/// A paced device (``NullAudioOutput``) that notes the peak of every write and calls `onWrite` with the
/// number of writes so far, from the audio thread, before that write plays.
private final class PeakRecordingOutput: AudioOutput {
    private let device = NullAudioOutput()
    private let lock = NSLock()
    private var recorded: [Int] = []
    var onWrite: (Int) -> Void = { _ in }

    var peaks: [Int] { lock.withLock { recorded } }
    var format: PCMFormat? { device.format }
    var framesWritten: Int64 { device.framesWritten }
    var delayFrames: Int { device.delayFrames }
    func open(format: PCMFormat) throws { try device.open(format: format) }
    func drain() { device.drain() }
    func close() { device.close() }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        let peak = samples.reduce(0) { max($0, abs(Int($1))) }
        let count = lock.withLock { () -> Int in
            recorded.append(peak)
            return recorded.count
        }
        onWrite(count)
        try device.write(samples)
    }
}
