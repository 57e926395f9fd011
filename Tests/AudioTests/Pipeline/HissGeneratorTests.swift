import WavedialTestSupport
import XCTest
@testable import Audio

final class HissGeneratorTests: XCTestCase {
    private func hiss(seconds: Double = 1, sampleRate: Int = 44_100, channels: Int = 2, seed: UInt64 = 1) -> [Int16] {
        var generator = HissGenerator(sampleRate: sampleRate, seed: seed)
        var samples = [Int16](repeating: 0, count: Int(seconds * Double(sampleRate)) * channels)
        samples.withUnsafeMutableBufferPointer { generator.fill($0, channels: channels) }
        return samples
    }

    private func rms(_ samples: [Int16]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    func testAQuietFixedLevelAtEverySampleRate() {
        for rate in [8_000, 22_050, 44_100, 48_000, 96_000] {
            let level = 20 * log10(rms(hiss(sampleRate: rate)) / 32_768)
            XCTAssertEqual(level, HissGenerator.levelDBFS, accuracy: 1, "\(rate) Hz")
            XCTAssertLessThanOrEqual(level, -39, "never louder than a quiet programme (\(rate) Hz)")
        }
    }

    func testTheSameSeedGivesTheSameHissAndAnotherSeedAnother() {
        XCTAssertEqual(hiss(seconds: 0.1, seed: 7), hiss(seconds: 0.1, seed: 7))
        XCTAssertNotEqual(hiss(seconds: 0.1, seed: 7), hiss(seconds: 0.1, seed: 8))
        XCTAssertNotEqual(hiss(seconds: 0.1, seed: 0), [Int16](repeating: 0, count: 8_820), "a zero seed still hisses")
    }

    func testSamplesAreFiniteBoundedAndTheSameOnEveryChannel() {
        var generator = HissGenerator(sampleRate: 44_100, seed: 3)
        for _ in 0..<200_000 {
            let sample = generator.next()
            XCTAssertTrue(sample.isFinite)
            XCTAssertLessThan(abs(sample), 0.1, "a hiss, not a crack")
        }
        let stereo = hiss(seconds: 0.1, channels: 2)
        XCTAssertEqual(stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }, stride(from: 1, to: stereo.count, by: 2).map { stereo[$0] })
    }

    func testSoftLikeFMDeemphasis() {
        let mono = hiss(seconds: 2, channels: 1)
        let low = PCMAnalysis.power(mono, channels: 1, sampleRate: 44_100, frequency: 300)
        let high = PCMAnalysis.power(mono, channels: 1, sampleRate: 44_100, frequency: 15_000)
        XCTAssertGreaterThan(low, high * 4, "treble rolled off: low \(low), high \(high)")
    }
}
