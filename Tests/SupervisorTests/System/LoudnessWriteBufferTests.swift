import Foundation
import WavedialCore
import XCTest

@testable import Supervisor

/// When measured loudness reaches the SD card: a station's first measurement at once, then at most once a
/// minute, and its latest whenever the station changes or ends.
final class LoudnessWriteBufferTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    private func measurement(_ station: String, _ lufs: Double) -> StationLoudness {
        StationLoudness(stationuuid: station, loudnessLUFS: lufs, measuredAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func testAtMostOnceAMinuteWhileAStationPlays() {
        var buffer = LoudnessWriteBuffer()
        var written: [Double] = []
        // A report every 5 s for five minutes, the measurement drifting.
        for step in 0..<60 {
            let now = UInt64(10 + step * 5) * second
            buffer.hear(measurement("a", -20 - Double(step)), isLast: false, at: now)
            written += buffer.takeDue(at: now).map(\.loudnessLUFS)
        }
        XCTAssertEqual(written, [-20, -32, -44, -56, -68], "the first at once, then the latest each minute")
    }

    func testTheLatestIsWrittenWhenTheStationChangesOrEnds() {
        var buffer = LoudnessWriteBuffer()
        buffer.hear(measurement("a", -20), isLast: false, at: 10 * second)
        XCTAssertEqual(buffer.takeDue(at: 10 * second).map(\.loudnessLUFS), [-20])
        buffer.hear(measurement("a", -21), isLast: false, at: 15 * second)
        XCTAssertEqual(buffer.takeDue(at: 15 * second), [], "within the minute")
        buffer.hear(measurement("b", -30), isLast: false, at: 30 * second)
        XCTAssertEqual(buffer.takeDue(at: 30 * second).map(\.stationuuid).sorted(), ["a", "b"], "a's latest as b comes, b's first")
        buffer.hear(measurement("b", -31), isLast: true, at: 32 * second)
        XCTAssertEqual(buffer.takeDue(at: 32 * second).map(\.loudnessLUFS), [-31], "the last report of a station that ended")
        XCTAssertEqual(buffer.takeDue(at: 600 * second), [], "nothing twice")
    }

    func testTakeAllEmptiesItAtShutdown() {
        var buffer = LoudnessWriteBuffer()
        buffer.hear(measurement("a", -20), isLast: false, at: 0)
        _ = buffer.takeDue(at: 0)
        buffer.hear(measurement("a", -19), isLast: false, at: 5 * second)
        XCTAssertEqual(buffer.takeAll().map(\.loudnessLUFS), [-19])
        XCTAssertEqual(buffer.takeAll(), [])
    }

    func testStationsComingAndGoingFastKeepItSmall() {
        var buffer = LoudnessWriteBuffer()
        var written = 0
        for step in 0..<10_000 {
            buffer.hear(measurement("s\(step % 300)", -20), isLast: step % 3 == 0, at: UInt64(step) * second / 10)
            let due = buffer.takeDue(at: UInt64(step) * second / 10)
            XCTAssertLessThanOrEqual(due.count, 2)
            written += due.count
        }
        XCTAssertEqual(written + buffer.takeAll().count, 10_000, "each measurement written once: at once, or when its station changed")
    }
}
