import XCTest
@testable import Audio

final class VolumeTests: XCTestCase {
    private func apply(_ volume: inout Volume, frames: Int, channels: Int = 2, value: Int16 = 10_000) -> [Int16] {
        var samples = [Int16](repeating: value, count: frames * channels)
        samples.withUnsafeMutableBufferPointer { volume.apply(to: $0, channels: channels) }
        return samples
    }

    func testFadeInRisesSmoothlyToTargetWithinTheRamp() {
        var volume = Volume(gain: 0)
        volume.ramp(to: 1, overFrames: 100)
        let samples = apply(&volume, frames: 150)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        XCTAssertEqual(left.first, 0)
        XCTAssertEqual(Array(left[100...]), [Int16](repeating: 10_000, count: 50))
        for index in 1..<left.count {
            XCTAssertGreaterThanOrEqual(left[index], left[index - 1])
            XCTAssertLessThanOrEqual(Int(left[index]) - Int(left[index - 1]), 101, "no step larger than one ramp increment")
        }
        XCTAssertEqual(stride(from: 1, to: samples.count, by: 2).map { samples[$0] }, left, "both channels share the gain")
        XCTAssertFalse(volume.isRamping)
    }

    func testFadeOutContinuesAcrossBuffersAndEndsSilent() {
        var volume = Volume(gain: 1)
        volume.ramp(to: 0, overFrames: 64)
        let first = apply(&volume, frames: 32)
        XCTAssertTrue(volume.isRamping)
        let second = apply(&volume, frames: 64)
        XCTAssertEqual(first[0], 10_000)
        XCTAssertLessThan(second[0], first[62])
        XCTAssertEqual(Array(second[64...]), [Int16](repeating: 0, count: 64))
        XCTAssertEqual(volume.gain, 0)
    }

    func testUnityLeavesSamplesAloneAndLevelIsSquared() {
        var volume = Volume(gain: 1)
        XCTAssertEqual(apply(&volume, frames: 4, value: -32768), [Int16](repeating: -32768, count: 8))
        XCTAssertEqual(Volume.gain(forLevel: 0.5), 0.25)
        XCTAssertEqual(Volume.gain(forLevel: 2), 1)
        var half = Volume(gain: 0.5)
        // Rounded to the nearest, ties to even: 500.5 is 500, 501.5 is 502.
        XCTAssertEqual(apply(&half, frames: 1, value: 1001), [500, 500])
        XCTAssertEqual(apply(&half, frames: 1, value: 1003), [502, 502])
        XCTAssertEqual(apply(&half, frames: 1, value: -1003), [-502, -502])
    }

    func testFramesToTargetCountsDownTheRamp() {
        var volume = Volume(gain: 1)
        XCTAssertEqual(volume.framesToTarget, 0)
        volume.ramp(to: 0, overFrames: 100)
        XCTAssertEqual(volume.framesToTarget, 100)
        var samples = [Int16](repeating: 1000, count: 60 * 2)
        samples.withUnsafeMutableBufferPointer { volume.apply(to: $0, channels: 2) }
        XCTAssertEqual(volume.framesToTarget, 40)
        samples = [Int16](repeating: 1000, count: 40 * 2)
        samples.withUnsafeMutableBufferPointer { volume.apply(to: $0, channels: 2) }
        XCTAssertEqual(volume.framesToTarget, 0)
        XCTAssertEqual(volume.gain, 0)
    }
}
