import WavedialTestSupport
import XCTest
@testable import Audio

/// The ALSA output on alsa-lib's `file` plugin (real snd_pcm_* calls, no sound card).
final class AlsaOutputTests: XCTestCase {
    func testWritesExactlyTheFramesGiven() throws {
        let capture = AlsaCapture.device(named: "output")
        let output = AlsaOutput(settings: AlsaOutputSettings(device: capture.device))
        try output.open(format: PCMFormat(sampleRate: 48000, channels: 2))
        let samples = (0..<(48000 * 2)).map { Int16(truncatingIfNeeded: $0 &* 17) }
        try samples.withUnsafeBufferPointer { try output.write($0) }
        XCTAssertEqual(output.framesWritten, 48000)
        output.drain()
        output.close()
        XCTAssertEqual(AlsaCapture.samples(in: capture.file), samples)
    }

    func testRecoversFromUnderrunAndSuspendButNotFromOtherErrors() throws {
        let capture = AlsaCapture.device(named: "recover")
        let output = AlsaOutput(settings: AlsaOutputSettings(device: capture.device))
        try output.open(format: PCMFormat(sampleRate: 44100, channels: 1))
        XCTAssertNoThrow(try output.recover(from: -EPIPE))
        XCTAssertNoThrow(try output.recover(from: -ESTRPIPE))
        XCTAssertNoThrow(try output.recover(from: -EINTR))
        XCTAssertEqual(output.recoveries, 2)
        XCTAssertThrowsError(try output.recover(from: -EIO)) { error in
            XCTAssertEqual((error as? AlsaError)?.code, -EIO)
        }
        let samples = [Int16](repeating: 1000, count: 4410)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        output.close()
        XCTAssertEqual(AlsaCapture.samples(in: capture.file).count, 4410, "writing works after recovery")
    }

    func testMissingDeviceThrowsAlsaError() {
        _ = AlsaCapture.device(named: "unused")
        let output = AlsaOutput(settings: AlsaOutputSettings(device: "wavedial_no_such_device"))
        XCTAssertThrowsError(try output.open(format: PCMFormat(sampleRate: 44100, channels: 2))) { error in
            XCTAssertTrue(error is AlsaError, "\(error)")
        }
    }

    /// A USB DAC pulled out: alsa-lib returns -ENODEV from the open and from the open PCM's next write.
    func testAnUnpluggedDeviceFailsWithNoSuchDeviceAndOpensAgainWhenBack() throws {
        let device = try UnpluggableAlsaDevice(named: "output-unplug")
        defer { device.remove() }
        let output = AlsaOutput(settings: AlsaOutputSettings(device: device.device))
        let format = PCMFormat(sampleRate: 44100, channels: 2)
        try output.open(format: format)
        let samples = [Int16](repeating: 1000, count: 4410)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        device.unplug()
        XCTAssertThrowsError(try samples.withUnsafeBufferPointer { try output.write($0) }) { error in
            XCTAssertEqual((error as? AlsaError)?.code, -ENODEV, "\(error)")
        }
        output.close()
        XCTAssertThrowsError(try output.open(format: format)) { error in
            XCTAssertEqual((error as? AlsaError)?.code, -ENODEV, "\(error)")
        }
        device.plugIn()
        try output.open(format: format)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        output.close()
        XCTAssertEqual(device.samples.count, 2 * 4410, "what was written while plugged in, and nothing else")
    }
}
