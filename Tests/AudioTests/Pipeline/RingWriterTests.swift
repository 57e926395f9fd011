import XCTest
@testable import Audio

/// The end of the input chain: its marks and its buffering policy, driven as the network thread drives it.
final class RingWriterTests: XCTestCase {
    private func audio(_ writer: RingWriter, _ count: Int) -> Bool {
        [UInt8](repeating: 0xAA, count: count).withUnsafeBytes { writer.audio($0) }
    }

    func testTitlesWhileThePausedStreamIsDroppedLeaveOnePendingMark() {
        let writer = RingWriter(timeShiftSeconds: 1, maximumLeadSeconds: 1)
        writer.bytesPerSecond = 16_000
        writer.setPaused(true)
        // Past the time-shift bound every byte is dropped; a hostile `icy-metaint: 1` sends a title per byte.
        XCTAssertTrue(audio(writer, 10_000))
        XCTAssertTrue(audio(writer, 10_000))
        XCTAssertEqual(writer.ring.count, 10_000)
        for index in 0..<100_000 {
            writer.title("Title \(index)")
            XCTAssertTrue(audio(writer, 1))
        }
        XCTAssertEqual(writer.ring.markCount, 1)
        writer.setPaused(false)
        // Resumed live: the stale audio is gone and the latest title applies to what comes next.
        XCTAssertEqual(writer.ring.count, 0)
        XCTAssertEqual(writer.ring.reachedMarks(), [.title("Title 99999")])
    }

    func testTitlesEveryFewBytesWhileRecordingLeaveOnePendingMarkAtTheLatest() {
        let writer = RingWriter(timeShiftSeconds: 300, maximumLeadSeconds: 30)
        writer.bytesPerSecond = 16_000
        writer.setPaused(true)
        // 10 s of a stream with a new title every 16 bytes, recorded while paused.
        for index in 0..<10_000 {
            writer.title("Title \(index)")
            XCTAssertTrue(audio(writer, 16))
        }
        XCTAssertEqual(writer.ring.markCount, 1)
        XCTAssertEqual(writer.ring.nextMarkPosition, 9_999 * 16, "the latest title, where it was sent")
    }

    func testTitlesFartherApartThanTheShortestHeardSpanAreAllKept() {
        let writer = RingWriter(timeShiftSeconds: 300, maximumLeadSeconds: 30)
        writer.bytesPerSecond = 16_000
        writer.setPaused(true)
        let span = Int(RingWriter.shortestHeardTitleSeconds * 16_000)
        for index in 0..<20 {
            writer.title("Title \(index)")
            XCTAssertTrue(audio(writer, span))
        }
        XCTAssertEqual(writer.ring.markCount, 20)
    }

    func testAHugeOrTinyMeasuredBitrateIsClamped() {
        let writer = RingWriter(timeShiftSeconds: 7200, maximumLeadSeconds: 600)
        writer.bytesPerSecond = Int.max
        XCTAssertLessThanOrEqual(writer.bytesPerSecond, RingWriter.maximumBytesPerSecond * 100)
        writer.setPaused(true)
        XCTAssertTrue(audio(writer, 1000), "no overflow sizing the time-shift from it")
        writer.bytesPerSecond = -5
        XCTAssertGreaterThan(writer.bytesPerSecond, 0)
    }
}
