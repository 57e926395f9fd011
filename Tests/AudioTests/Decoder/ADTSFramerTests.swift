import WavedialTestSupport
import XCTest
@testable import Audio

final class ADTSFramerTests: XCTestCase {
    /// An ADTS header (no CRC): AAC-LC, 44.1 kHz, stereo, 367 bytes a frame.
    private let header: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x2D, 0xFF, 0xFC]

    private func frame(_ fill: UInt8) -> [UInt8] { header + [UInt8](repeating: fill, count: 360) }

    private func frames(in stream: [UInt8], chunk: Int) -> (frames: [[UInt8]], framer: ADTSFramer) {
        var framer = ADTSFramer()
        var found: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + chunk, stream.count)
            stream[offset..<end].withUnsafeBytes { framer.append($0) }
            offset = end
            while let frame = framer.nextFrame() { found.append(Array(framer.bytes[frame.range])) }
        }
        return (found, framer)
    }

    func testParsesTheFixedHeader() {
        let parsed = ADTSHeader(header, at: 0)
        XCTAssertEqual(parsed?.profile, 1)
        XCTAssertEqual(parsed?.sampleRate, 44100)
        XCTAssertEqual(parsed?.channelConfiguration, 2)
        XCTAssertEqual(parsed?.frameLength, 367)
        XCTAssertEqual(parsed?.hasCRC, false)
        // Layer bits set, a reserved rate index, a length shorter than the header: none is a header.
        XCTAssertNil(ADTSHeader([0xFF, 0xF3] + header[2...], at: 0))
        XCTAssertNil(ADTSHeader([0xFF, 0xF1, UInt8(0x50 | 0x34)] + header[3...], at: 0))
        XCTAssertNil(ADTSHeader([0xFF, 0xF1, 0x50, 0x80, 0x00, 0xFF, 0xFC], at: 0))
        XCTAssertNil(ADTSHeader(Array(header[..<6]), at: 0))
    }

    func testFindsFramesAfterAMidFrameStartAndBetweenJunk() {
        let junk: [UInt8] = [0xFF, 0xFF, 0xF1, 0x00, 0x12, 0xFF] + header + [0x00, 0xFF]
        let stream = Array(frame(1)[200...]) + frame(2) + frame(3) + junk + frame(4) + frame(5) + frame(6)
        for chunk in [1, 5, 100, stream.count] {
            let (found, framer) = frames(in: stream, chunk: chunk)
            // Frame 3 is followed by junk, so it is taken only because it continues frame 2; 4 needs 5 to confirm it.
            XCTAssertEqual(found.map { $0[7] }, [2, 3, 4, 5, 6], "chunks of \(chunk)")
            XCTAssertEqual(found.map(\.count), [367, 367, 367, 367, 367])
            XCTAssertEqual(framer.skippedBytes, 167 + junk.count, "chunks of \(chunk)")
        }
    }

    func testAFakeLengthDoesNotHoldUpAConfirmedFrame() {
        // A header whose length points 8 KB ahead, then a short run of real frames: they must not wait for it.
        let fake: [UInt8] = [0xFF, 0xF1, 0x50, 0x83, 0xFF, 0xFF, 0xFC]
        let (found, _) = frames(in: fake + frame(1) + frame(2) + frame(3), chunk: 400)
        XCTAssertEqual(found.map { $0[7] }, [1, 2, 3])
    }

    func testHoldsNoMoreThanItsCapacity() {
        var framer = ADTSFramer()
        let junk = [UInt8](repeating: 0x41, count: 100_000)
        for _ in 0..<10 { junk.withUnsafeBytes { framer.append($0) } }
        XCTAssertLessThanOrEqual(framer.bytes.count, ADTSFramer.capacity)
        XCTAssertNil(framer.nextFrame())
        // Junk without a sync byte is dropped as soon as it is looked at.
        junk.withUnsafeBytes { framer.append($0) }
        XCTAssertNil(framer.nextFrame())
        let tail: [UInt8] = frame(7) + frame(8)
        tail.withUnsafeBytes { framer.append($0) }
        XCTAssertLessThanOrEqual(framer.bytes.count, tail.count)
        XCTAssertEqual(framer.nextFrame().map { framer.bytes[$0.range.lowerBound + 7] }, 7)
    }
}
