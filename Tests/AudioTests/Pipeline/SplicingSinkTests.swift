import XCTest
@testable import Audio

/// The splice as the input chain uses it: joined reconnections while a station plays, none while it is
/// only kept warm (nothing plays those bytes, so nothing is remembered for them).
final class SplicingSinkTests: XCTestCase {
    /// Records what reaches the ring: audio bytes, and a marker for each discontinuity.
    private final class RecordingSink: ElementaryStreamSink {
        var bytes: [UInt8] = []
        var discontinuities = 0
        func begin(_ encoding: AudioEncoding) {}
        func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
            self.bytes.append(contentsOf: bytes)
            return true
        }
        func title(_ title: String) {}
        func discontinuity() { discontinuities += 1 }
        func end() {}
    }

    private let stream: [UInt8] = {
        var state: UInt32 = 0x2545_F491
        return (0..<120_000).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    private func connect(_ sink: SplicingSink, _ bytes: ArraySlice<UInt8>) {
        sink.begin(.mpeg)
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = min(bytes.endIndex, offset + 1400)
            _ = Array(bytes[offset..<end]).withUnsafeBytes { sink.audio($0) }
            offset = end
        }
        sink.end()
    }

    func testAReconnectionIsJoinedWhilePlayingButNotWhileWarmAndAgainOnceAdopted() {
        let ring = RecordingSink()
        var warm = false
        let sink = SplicingSink(next: ring, isWarm: { warm })
        // Playing: the second connection's burst repeats the last 30 kB; the stream goes on at the byte.
        connect(sink, stream[0..<50_000])
        connect(sink, stream[20_000..<60_000])
        XCTAssertEqual(ring.bytes, Array(stream[0..<60_000]))
        XCTAssertEqual(ring.discontinuities, 1, "only the first connection's start")

        // Kept warm: the burst passes whole after a discontinuity (the warm ring keeps only its latest seconds).
        warm = true
        connect(sink, stream[40_000..<80_000])
        XCTAssertEqual(ring.bytes, Array(stream[0..<60_000] + stream[40_000..<80_000]))
        XCTAssertEqual(ring.discontinuities, 2)

        // Adopted mid-connection: remembered from there, so the next reconnection is joined again.
        ring.bytes.removeAll()
        sink.begin(.mpeg)
        _ = Array(stream[80_000..<81_000]).withUnsafeBytes { sink.audio($0) }
        warm = false
        _ = Array(stream[81_000..<100_000]).withUnsafeBytes { sink.audio($0) }
        sink.end()
        connect(sink, stream[90_000..<110_000])
        XCTAssertEqual(ring.bytes, Array(stream[80_000..<110_000]))
        XCTAssertEqual(ring.discontinuities, 3, "the warm connection's start only")
    }

    func testBytesHeldForMatchingPassOnWhenTheStationTurnsWarm() {
        let ring = RecordingSink()
        var warm = false
        let sink = SplicingSink(next: ring, isWarm: { warm })
        connect(sink, stream[0..<50_000])
        sink.begin(.mpeg)
        _ = Array(stream[45_000..<46_000]).withUnsafeBytes { sink.audio($0) }  // held: shorter than the probe
        warm = true
        _ = Array(stream[46_000..<47_000]).withUnsafeBytes { sink.audio($0) }
        XCTAssertEqual(ring.bytes, Array(stream[0..<50_000] + stream[45_000..<47_000]), "nothing held is lost")
        XCTAssertEqual(ring.discontinuities, 2)
    }
}
