import XCTest
@testable import Audio

/// The null device on an injected clock: it holds a buffer's worth, plays in real time, and makes a
/// writer that runs ahead wait exactly as long as a device would.
final class NullAudioOutputTests: XCTestCase {
    private final class ManualClock {
        var now = 100.0
        var slept: [Double] = []
    }

    private func makeOutput(_ clock: ManualClock) -> NullAudioOutput {
        NullAudioOutput(bufferSeconds: 0.2, clock: { clock.now }, sleep: { seconds in
            clock.slept.append(seconds)
            clock.now += seconds
        })
    }

    private func write(_ output: NullAudioOutput, frames: Int, channels: Int = 2) throws {
        let samples = [Int16](repeating: 0, count: frames * channels)
        try samples.withUnsafeBufferPointer { try output.write($0) }
    }

    func testPlaysInRealTimeAndWaitsWhenFull() throws {
        let clock = ManualClock()
        let output = makeOutput(clock)
        try output.open(format: PCMFormat(sampleRate: 48000, channels: 2))
        try write(output, frames: 4800)
        XCTAssertEqual(output.delayFrames, 4800)
        clock.now += 0.05
        XCTAssertEqual(output.delayFrames, 2400, "50 ms played")
        try write(output, frames: 7200)  // 9600 held: the whole 0.2 s buffer, no wait
        XCTAssertEqual(clock.slept, [])
        try write(output, frames: 4800)  // 100 ms too many: waits 100 ms
        XCTAssertEqual(clock.slept.reduce(0, +), 0.1, accuracy: 1e-9)
        XCTAssertEqual(output.delayFrames, 9600)
        XCTAssertEqual(output.framesWritten, 16800)
    }

    func testAnUnderrunDoesNotBankTimeAndDrainPlaysOut() throws {
        let clock = ManualClock()
        let output = makeOutput(clock)
        try output.open(format: PCMFormat(sampleRate: 8000, channels: 1))
        try write(output, frames: 800, channels: 1)
        clock.now += 5  // ran dry long ago
        XCTAssertEqual(output.delayFrames, 0)
        try write(output, frames: 1600, channels: 1)
        XCTAssertEqual(output.delayFrames, 1600, "time spent dry is not credited to later frames")
        output.drain()
        XCTAssertEqual(clock.slept.last ?? 0, 0.2, accuracy: 1e-9)
        XCTAssertEqual(output.delayFrames, 0)
        output.close()
        XCTAssertNil(output.format)
        try write(output, frames: 100, channels: 1)
        XCTAssertEqual(output.totalFramesWritten, 2400, "writes while closed are ignored")
    }
}
