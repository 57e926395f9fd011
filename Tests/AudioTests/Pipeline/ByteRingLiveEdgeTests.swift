import XCTest
@testable import Audio

/// A warm station's ring: only its live edge is kept, and playing it starts a stream there.
final class ByteRingLiveEdgeTests: XCTestCase {
    private func write(_ ring: ByteRing, _ bytes: [UInt8]) {
        XCTAssertEqual(bytes.withUnsafeBytes { ring.write($0) }, .written)
    }

    private func readAll(_ ring: ByteRing) -> (bytes: [UInt8], marks: [(Int, ByteRing.Mark)]) {
        var bytes: [UInt8] = []
        var marks: [(Int, ByteRing.Mark)] = []
        while true {
            marks += ring.reachedMarks().map { (bytes.count, $0) }
            var limit = 4096
            if let next = ring.nextMarkPosition { limit = max(1, min(limit, Int(next - ring.readPosition))) }
            var buffer = [UInt8](repeating: 0, count: limit)
            let count = buffer.withUnsafeMutableBytes { ring.read(into: $0, timeout: 0) }
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        return (bytes, marks)
    }

    func testDiscardKeepsTheLatestBytesAndCarriesTheLatestEncodingAndTitle() {
        let ring = ByteRing(capacity: 1 << 20)
        ring.mark(.encoding(.mpeg))
        ring.mark(.title("first"))
        write(ring, Array(repeating: 1, count: 1000))
        ring.mark(.discontinuity)
        ring.mark(.title("second"))
        write(ring, Array(repeating: 2, count: 1000))
        ring.mark(.title("third"))
        write(ring, Array(repeating: 3, count: 500))
        ring.discardOldest(keeping: 800)
        XCTAssertEqual(ring.count, 800)
        let (bytes, marks) = readAll(ring)
        XCTAssertEqual(bytes, Array(repeating: 2, count: 300) + Array(repeating: 3, count: 500), "the latest 800 bytes")
        XCTAssertEqual(marks.map(\.0), [0, 0, 300])
        XCTAssertEqual(marks.map(\.1), [.encoding(.mpeg), .title("second"), .title("third")],
                       "the encoding and the title of the first byte kept; the discontinuity went with its bytes")
    }

    func testDiscardGivesStorageBack() {
        let ring = ByteRing(capacity: 1 << 22)
        write(ring, Array(repeating: 7, count: 1 << 21))
        ring.discardOldest(keeping: 1000)
        write(ring, Array(repeating: 8, count: 10))
        XCTAssertEqual(readAll(ring).bytes, Array(repeating: 7, count: 1000) + Array(repeating: 8, count: 10))
    }

    func testReopenPutsTheEncodingAndHeadersFirstAndDropsADiscontinuityThere() {
        let ring = ByteRing(capacity: 1 << 20)
        ring.mark(.encoding(.ogg))
        write(ring, Array(repeating: 1, count: 3000))
        ring.mark(.discontinuity)
        ring.mark(.title("now"))
        write(ring, Array(repeating: 2, count: 100))
        ring.discardOldest(keeping: 100)
        let headers: [UInt8] = Array("OggS-headers".utf8)
        XCTAssertTrue(headers.withUnsafeBytes { ring.reopen(prefix: $0, encoding: .ogg, title: "older") })
        let (bytes, marks) = readAll(ring)
        XCTAssertEqual(bytes, headers + Array(repeating: 2, count: 100))
        XCTAssertEqual(marks.map(\.0), [0, headers.count])
        XCTAssertEqual(marks.map(\.1), [.encoding(.ogg), .title("now")],
                       "no restart between the headers and the audio; the ring's own title wins over the one given")
    }

    func testReopenOfAnEmptyRingMarksTheGivenTitle() {
        let ring = ByteRing(capacity: 100)
        XCTAssertTrue([UInt8]().withUnsafeBytes { ring.reopen(prefix: $0, encoding: .adts, title: "on air") })
        XCTAssertFalse(Array(repeating: UInt8(0), count: 101).withUnsafeBytes { ring.reopen(prefix: $0, encoding: .adts, title: nil) },
                       "headers past the capacity are refused")
        write(ring, [9])
        XCTAssertEqual(readAll(ring).marks.map(\.1), [.encoding(.adts), .title("on air")])
    }
}
