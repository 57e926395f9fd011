import Foundation
import WavedialCore
import XCTest

@testable import Supervisor

/// The song history's rules alone, in monotonic nanoseconds: one entry a station in 10 s, one write a minute.
final class SongHistoryBufferTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func song(_ title: String, on station: String = "s1", at seconds: Double) -> SongHistoryEntry {
        SongHistoryEntry(stationuuid: station, stationName: station, title: title, heardAt: start.addingTimeInterval(seconds))
    }

    func testEachStationHasItsOwnTenSeconds() {
        var buffer = SongHistoryBuffer()
        buffer.hear(song("A1", on: "a", at: 0), at: 0)
        buffer.hear(song("B1", on: "b", at: 1), at: 1 * second)
        buffer.hear(song("A2", on: "a", at: 2), at: 2 * second)
        buffer.hear(song("A3", on: "a", at: 3), at: 3 * second)
        XCTAssertEqual(buffer.takeDue(at: 3 * second).map(\.title), ["A1", "B1"], "the first write comes at once")
        XCTAssertEqual(buffer.takeDue(at: 10 * second), [], "A3 is taken now, but the next write is a minute on")
        let written = buffer.takeDue(at: 63 * second)
        XCTAssertEqual(written.map(\.title), ["A3"], "A2 was replaced while it waited")
        XCTAssertEqual(written.first?.heardAt, start.addingTimeInterval(10), "stamped 10 s after A1")
    }

    func testAFloodOfTitlesIsBoundedBetweenWrites() {
        var buffer = SongHistoryBuffer()
        _ = buffer.takeDue(at: 0)
        var written: [SongHistoryEntry] = []
        // A different station every 100 ms, for ten minutes, each with a title.
        for n in 0..<6000 {
            let now = UInt64(n) * second / 10
            buffer.hear(song("T\(n)", on: "s\(n)", at: Double(n) / 10), at: now)
            let due = buffer.takeDue(at: now)
            XCTAssertLessThanOrEqual(due.count, SongHistoryBuffer.capacity)
            written += due
        }
        written += buffer.takeAll(at: 600 * second)
        XCTAssertEqual(written.last?.title, "T5999", "the newest are kept")
        XCTAssertLessThanOrEqual(written.count, 6000)
    }

    func testAtShutdownATitleWithinItsTenSecondsIsLeftOut() {
        var buffer = SongHistoryBuffer()
        buffer.hear(song("First", at: 0), at: 0)
        XCTAssertEqual(buffer.takeDue(at: 0).map(\.title), ["First"])
        buffer.hear(song("Second", at: 20), at: 20 * second)
        buffer.hear(song("Third", at: 25), at: 25 * second)
        XCTAssertEqual(buffer.takeAll(at: 26 * second).map(\.title), ["Second"])
        XCTAssertEqual(buffer.takeAll(at: 90 * second), [], "nothing is kept for later")
    }
}
