import WavedialTestSupport
import XCTest
@testable import Audio

/// The meter that hears every other frame (``EBUR128Meter/frameStride`` 2) against the one that hears them all.
final class EBUR128MeterTests: XCTestCase {
    private let stereo = PCMFormat(sampleRate: 48000, channels: 2)

    private func loudness(of samples: [Int16], format: PCMFormat, frameStride: Int, chunkFrames: Int? = nil) -> Double {
        guard let meter = EBUR128Meter(format: format, frameStride: frameStride) else { return .nan }
        samples.withUnsafeBufferPointer { buffer in
            let chunk = (chunkFrames ?? buffer.count) * format.channels
            for start in stride(from: 0, to: buffer.count, by: chunk) {
                meter.add(UnsafeBufferPointer(rebasing: buffer[start..<min(start + chunk, buffer.count)]))
            }
        }
        return meter.integrated
    }

    /// Programme-like stereo: two voices of harmonics, different on each side, over noise whose spectrum
    /// falls 6 dB an octave (music's is steeper), swelling.
    private func programme(seconds: Int, format: PCMFormat) -> [Int16] {
        var random = SeededRandom(seed: 11)
        var samples: [Int16] = []
        var brown = (0.0, 0.0)
        for frame in 0..<(seconds * format.sampleRate) {
            let time = Double(frame) / Double(format.sampleRate)
            let swell = 0.5 + 0.5 * sin(Double.pi * time / 3)
            var voices = (0.0, 0.0)
            for harmonic in 1...12 {
                let amplitude = 0.25 / Double(harmonic)
                voices.0 += amplitude * sin(2 * Double.pi * 196 * Double(harmonic) * time)
                voices.1 += amplitude * sin(2 * Double.pi * 261.6 * Double(harmonic) * time)
            }
            brown.0 = 0.98 * brown.0 + 0.2 * Double.random(in: -1...1, using: &random)
            brown.1 = 0.98 * brown.1 + 0.2 * Double.random(in: -1...1, using: &random)
            samples.append(Int16(clamping: Int((swell * (voices.0 + 0.3 * brown.0) * 9000).rounded())))
            samples.append(Int16(clamping: Int((swell * (voices.1 + 0.3 * brown.1) * 9000).rounded())))
        }
        return samples
    }

    private func whiteNoise(seconds: Int, format: PCMFormat) -> [Int16] {
        var random = SeededRandom(seed: 5)
        return (0..<(seconds * format.sampleRate * format.channels)).map { _ in Int16.random(in: -4000...4000, using: &random) }
    }

    func testEveryOtherFrameReadsProgrammeAsTheWholeDoes() {
        for rate in [44100, 48000] {
            let format = PCMFormat(sampleRate: rate, channels: 2)
            let samples = programme(seconds: 12, format: format)
            let whole = loudness(of: samples, format: format, frameStride: 1)
            XCTAssert(whole.isFinite && whole > -40, "\(whole)")
            XCTAssertEqual(loudness(of: samples, format: format, frameStride: 2), whole, accuracy: 0.1, "at \(rate) Hz")
        }
    }

    func testEveryOtherFrameReadsWhiteNoiseWithinAFifthOfALU() {
        let samples = whiteNoise(seconds: 6, format: stereo)
        let whole = loudness(of: samples, format: stereo, frameStride: 1)
        let strided = loudness(of: samples, format: stereo, frameStride: 2)
        XCTAssertEqual(strided, whole, accuracy: 0.2)
        // The folded top octave loses a little of the shelf's boost, never gains: the reading errs low.
        XCTAssertLessThan(strided, whole)
    }

    func testASineReadsAsBS1770SaysAtEveryOtherFrame() {
        // A 997 Hz sine of peak -20 dBFS on both channels is -20 LUFS.
        let sine = (0..<(48000 * 5)).map { Int16((3277 * sin(2 * Double.pi * 997 * Double($0) / 48000)).rounded()) }
        XCTAssertEqual(loudness(of: sine.flatMap { [$0, $0] }, format: stereo, frameStride: 2), -20, accuracy: 0.1)
    }

    func testTheStrideRunsOnAcrossChunksOfAnyLength() {
        let samples = whiteNoise(seconds: 3, format: stereo)
        let once = loudness(of: samples, format: stereo, frameStride: 2)
        // Odd chunks: every other frame is the same frames whichever way the stream is cut.
        for chunk in [1, 3, 1151, 4097] {
            XCTAssertEqual(loudness(of: samples, format: stereo, frameStride: 2, chunkFrames: chunk), once, "chunks of \(chunk)")
        }
    }

    func testTalkStationRatesAreHeardWhole() {
        let format = PCMFormat(sampleRate: 22050, channels: 1)
        let samples = whiteNoise(seconds: 3, format: format)
        XCTAssertEqual(loudness(of: samples, format: format, frameStride: 2), loudness(of: samples, format: format, frameStride: 1))
    }

    func testARateChangeKeepsTheStrideRight() {
        // 48 kHz, then 24 kHz (heard whole: below the strided rates), then 48 kHz again: one reading of all three.
        let format24 = PCMFormat(sampleRate: 24000, channels: 2)
        let first = programme(seconds: 8, format: stereo), middle = programme(seconds: 8, format: format24)
        let strided = EBUR128Meter(format: stereo, frameStride: 2)!, whole = EBUR128Meter(format: stereo)!
        for meter in [strided, whole] {
            first.withUnsafeBufferPointer { meter.add(UnsafeBufferPointer(rebasing: $0[0..<(first.count - 2)])) }
            XCTAssertTrue(meter.change(to: format24))
            middle.withUnsafeBufferPointer { meter.add($0) }
            XCTAssertTrue(meter.change(to: stereo))
            first.withUnsafeBufferPointer { meter.add($0) }
        }
        XCTAssertEqual(strided.integrated, whole.integrated, accuracy: 0.1)
    }
}
