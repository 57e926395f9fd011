import XCTest
@testable import Audio

final class SweepMixTests: XCTestCase {
    private let rate = 44_100

    /// `frames` stereo frames of a constant programme through the mix.
    private func run(_ mix: inout SweepMix, frames: Int, value: Int16 = 10_000) -> [Int16] {
        var samples = [Int16](repeating: value, count: frames * 2)
        samples.withUnsafeMutableBufferPointer { mix.apply(to: $0, channels: 2) }
        return samples
    }

    private func rms(_ samples: ArraySlice<Int16>, around center: Double) -> Double {
        (samples.reduce(0.0) { $0 + (Double($1) - center) * (Double($1) - center) } / Double(max(samples.count, 1))).squareRoot()
    }

    private var fullHissRMS: Double { 32_768 * pow(10, HissGenerator.levelDBFS / 20) }

    func testNotSweepingLeavesTheProgrammeAlone() {
        var mix = SweepMix(sampleRate: rate)
        XCTAssertEqual(run(&mix, frames: 1_000), [Int16](repeating: 10_000, count: 2_000))
        XCTAssertFalse(mix.isHissing)
    }

    func testHalfLevelHalvesTheProgrammeAndAddsHalfTheHiss() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: 0.5, noise: true), userGain: 1)
        let samples = run(&mix, frames: rate)
        let settled = samples[(mix.rampFrames * 2 + 200)...]
        let mean = settled.reduce(0.0) { $0 + Double($1) } / Double(settled.count)
        XCTAssertEqual(mean, 5_000, accuracy: 20, "−6 dB")
        XCTAssertEqual(rms(settled, around: 5_000), fullHissRMS / 2, accuracy: fullHissRMS * 0.1)
        XCTAssertTrue(mix.isHissing)
    }

    func testBetweenStationsOnlyHissAtItsQuietLevelScaledByTheVolume() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: 0, noise: true), userGain: 0.25)
        var samples = [Int16](repeating: 0, count: rate * 2)
        samples.withUnsafeMutableBufferPointer { mix.fillHiss($0, channels: 2) }
        let settled = samples[(mix.rampFrames * 2)...]
        XCTAssertEqual(rms(settled, around: 0), fullHissRMS / 4, accuracy: fullHissRMS * 0.05)
        let programme = run(&mix, frames: rate)
        XCTAssertEqual(rms(programme[...], around: 0), fullHissRMS / 4, accuracy: fullHissRMS * 0.05, "the programme is silent")
    }

    func testWithoutNoiseTheSweepOnlyScalesTheProgramme() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: 0.25, noise: false), userGain: 1)
        let samples = run(&mix, frames: rate / 10)
        XCTAssertEqual(Array(samples.suffix(100)), [Int16](repeating: 2_500, count: 100))
        XCTAssertFalse(mix.isHissing)
        var silence = [Int16](repeating: 1, count: 100)
        silence.withUnsafeMutableBufferPointer { mix.fillHiss($0, channels: 2) }
        XCTAssertEqual(silence, [Int16](repeating: 0, count: 100))
    }

    func testLevelChangesRampWithoutStepsAndEndingTheSweepRestoresTheProgrammeExactly() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: 0, noise: false), userGain: 1)
        let down = run(&mix, frames: mix.rampFrames * 2)
        let left = stride(from: 0, to: down.count, by: 2).map { Int(down[$0]) }
        let largestStep = zip(left.dropFirst(), left).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThanOrEqual(largestStep, 10_000 / mix.rampFrames + 1, "a ramp, not a click")
        XCTAssertEqual(left.last, 0)

        mix.set(nil, userGain: 1)
        let back = run(&mix, frames: mix.rampFrames * 2)
        XCTAssertEqual(Array(back.suffix(mix.rampFrames * 2)), [Int16](repeating: 10_000, count: mix.rampFrames * 2))
        XCTAssertFalse(mix.isHissing)
        XCTAssertFalse(mix.isSweeping)
    }

    func testTheHissFadesOutWhenTheSweepEnds() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: 0, noise: true), userGain: 1)
        var samples = [Int16](repeating: 0, count: rate)
        samples.withUnsafeMutableBufferPointer { mix.fillHiss($0, channels: 2) }
        mix.set(nil, userGain: 1)
        XCTAssertTrue(mix.isHissing, "fading out")
        var tail = [Int16](repeating: 0, count: mix.rampFrames * 4)
        tail.withUnsafeMutableBufferPointer { mix.fillHiss($0, channels: 2) }
        XCTAssertEqual(Array(tail.suffix(mix.rampFrames * 2)), [Int16](repeating: 0, count: mix.rampFrames * 2))
        XCTAssertFalse(mix.isHissing)
    }

    func testOutOfRangeLevelsAreClamped() {
        var mix = SweepMix(sampleRate: rate)
        mix.set(SweepMix.Setting(level: .nan, noise: false), userGain: 1)
        XCTAssertEqual(run(&mix, frames: rate / 10).suffix(10), [Int16](repeating: 0, count: 10)[...], "NaN is silence")
        mix.set(SweepMix.Setting(level: 7, noise: false), userGain: 1)
        XCTAssertEqual(run(&mix, frames: rate / 10).suffix(10), [Int16](repeating: 10_000, count: 10)[...])
    }
}
