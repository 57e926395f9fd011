import Foundation
import WavedialTestSupport
import XCTest
@testable import Audio

final class TruePeakLimiterTests: XCTestCase {
    private let rate = 44100

    /// Runs `input` (interleaved stereo) through a limiter in chunks of changing sizes, as decoders hand them out.
    private func limited(_ input: [Float], channels: Int = 2, limiter: TruePeakLimiter? = nil) -> [Float] {
        let limiter = limiter ?? TruePeakLimiter(channels: channels, sampleRate: rate)
        var output = input
        var start = 0
        var chunk = 1
        output.withUnsafeMutableBufferPointer { buffer in
            while start < buffer.count {
                let end = min(start + chunk * channels, buffer.count)
                limiter.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<end]))
                start = end
                chunk = chunk * 7 % 4001 + 1
            }
        }
        return output
    }

    /// White noise low-passed at 0.43 of the rate (19 kHz at 44.1 kHz), as a codec's decoded output is.
    private func bandLimitedNoise(count: Int, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        let white = (0..<(count + 64)).map { _ in Double.random(in: -1...1, using: &random) }
        let cutoff = 0.43
        let taps = (-32...32).map { offset -> Double in
            let x = Double(offset)
            let sinc = offset == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * x) / (Double.pi * x)
            return sinc * (0.54 + 0.46 * cos(Double.pi * x / 33))
        }
        // Plain loops over buffers: a debug build runs these 23 million multiply-adds, under emulation too.
        var filtered = [Double](repeating: 0, count: count)
        taps.withUnsafeBufferPointer { taps in
            white.withUnsafeBufferPointer { white in
                filtered.withUnsafeMutableBufferPointer { filtered in
                    for index in 0..<count {
                        var sum = 0.0
                        for tap in 0..<taps.count { sum += taps[tap] * white[index + tap] }
                        filtered[index] = sum
                    }
                }
            }
        }
        return filtered
    }

    /// 8 s of hot programme, up to 4 times full scale: noise bursts, a chord, and sines at a quarter of the
    /// rate whose true peaks fall halfway between samples (3 dB above every sample).
    private func hotProgramme(seconds: Int = 8) -> [Float] {
        let noise = bandLimitedNoise(count: seconds * rate, seed: 16)
        var samples: [Float] = []
        samples.reserveCapacity(seconds * rate * 2)
        for frame in 0..<(seconds * rate) {
            let time = Double(frame) / Double(rate)
            let envelope = 0.5 + 0.5 * sin(2 * Double.pi * time / 1.5)
            let chord = sin(2 * Double.pi * 220 * time) + sin(2 * Double.pi * 331 * time)
            let high = sin(2 * Double.pi * 11025 * time + Double.pi / 4)
            let burst = noise[frame] * (frame / rate % 2 == 0 ? 2.5 : 0.4)
            samples.append(Float(envelope * chord + burst))
            samples.append(Float(1.9 * high + 0.3 * noise[frame]))
        }
        return samples
    }

    func testAHotInputNeverPassesTheCeilingInASampleNorBetweenSamples() throws {
        let output = limited(hotProgramme())
        let ceiling = TruePeakLimiter.defaultCeiling
        XCTAssertLessThanOrEqual(output.map(abs).max() ?? 0, ceiling)
        XCTAssertFalse(output.contains { !$0.isFinite })
        // An outside judge of the true peak: ffmpeg's ebur128 (192 kHz) on the output as 32-bit float.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("limited.f32")
        try output.withUnsafeBufferPointer { try Data(buffer: $0).write(to: file) }
        let analysis = try LoudnessAnalysis.measure(rawPCM: file, sampleRate: rate, channels: 2, sampleFormat: "f32le")
        XCTAssertLessThanOrEqual(analysis.truePeak, -1, "\(analysis)")
    }

    func testASuddenPeakAfterQuietAudioIsCaughtInTime() {
        // Quiet (the idle path), then hot band-limited noise from one sample to the next, then quiet again.
        let noise = bandLimitedNoise(count: rate / 2, seed: 3)
        var input: [Float] = []
        for frame in 0..<(rate * 2) {
            let quiet = Float(0.1 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate)))
            let hot = (rate / 2..<rate).contains(frame) ? Float(3 * noise[frame - rate / 2]) : 0
            input += [quiet + hot, quiet - hot]
        }
        let limiter = TruePeakLimiter(channels: 2, sampleRate: rate)
        let output = limited(input, limiter: limiter)
        XCTAssertLessThanOrEqual(output.map(abs).max() ?? 0, TruePeakLimiter.defaultCeiling)
        let latency = limiter.latencyFrames * 2
        for index in latency..<(rate / 2 - limiter.lookaheadFrames) * 2 {
            XCTAssertEqual(output[index], input[index - latency], accuracy: 1e-4, "before the peak, untouched")
        }
        XCTAssertEqual(output[output.count - 2] / input[input.count - 2 - latency], 1, accuracy: 0.01, "released again")
    }

    func testAQuietInputPassesUnchangedOnlyLater() {
        let limiter = TruePeakLimiter(channels: 2, sampleRate: rate)
        let input = (0..<(rate * 2)).flatMap { frame -> [Float] in
            let value = Float(0.5 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate)))
            return [value, -value]
        }
        let output = limited(input, limiter: limiter)
        let latency = limiter.latencyFrames * 2
        XCTAssertEqual(Array(output.prefix(latency)), [Float](repeating: 0, count: latency), "silence while the delay line fills")
        for index in latency..<output.count {
            XCTAssertEqual(output[index], input[index - latency], accuracy: 1e-4)
        }
    }

    func testGainReductionRampsInsteadOfStepping() {
        // A quiet tone with one hot click: the gain goes down before it and comes back, never jumping.
        var input = (0..<rate).map { Float(0.2 * sin(2 * Double.pi * 100 * Double($0) / Double(rate))) }
        input[rate / 2] = 4
        let limiter = TruePeakLimiter(channels: 1, sampleRate: rate)
        let output = limited(input, channels: 1, limiter: limiter)
        let delayed = Array(output.dropFirst(limiter.latencyFrames))
        var previousGain: Float = 1
        for index in 0..<delayed.count where abs(input[index]) > 0.01 && index != rate / 2 {
            let gain = delayed[index] / input[index]
            XCTAssertLessThanOrEqual(abs(gain - previousGain), 0.05, "frame \(index)")
            previousGain = gain
        }
        XCTAssertLessThanOrEqual(abs(delayed[rate / 2]), TruePeakLimiter.defaultCeiling)
        XCTAssertEqual(delayed[rate - 1000] / input[rate - 1000], 1, accuracy: 0.01, "released again")
    }

    func testSilenceStaysSilentAndResetEmptiesTheDelayLine() {
        let limiter = TruePeakLimiter(channels: 2, sampleRate: rate)
        XCTAssertEqual(limited([Float](repeating: 0, count: 20_000), limiter: limiter), [Float](repeating: 0, count: 20_000))
        _ = limited([Float](repeating: 0.5, count: 2000), limiter: limiter)
        limiter.reset()
        XCTAssertEqual(limited([Float](repeating: 0, count: 2000), limiter: limiter), [Float](repeating: 0, count: 2000))
    }
}
