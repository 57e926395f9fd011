import Foundation
import WavedialCore
import XCTest

/// When alarms ring, over real time zones' rules (Foundation's zone data as the offset): DST days included.
final class AlarmScheduleTests: XCTestCase {
    private func offset(_ identifier: String) throws -> AlarmSchedule.Offset {
        let zone = try XCTUnwrap(TimeZone(identifier: identifier))
        return { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
    }

    private func unix(_ text: String) throws -> Int64 {
        Int64(try XCTUnwrap(ISO8601DateFormatter().date(from: text)).timeIntervalSince1970)
    }

    private func time(_ text: String) throws -> AlarmTime { try AlarmTime(parsing: text) }

    func testNextRingOnTheAlarmsDays() throws {
        let berlin = try offset("Europe/Berlin")
        // Tuesday 2026-11-24, 17:00 in Berlin (UTC+1).
        let now = try unix("2026-11-24T16:00:00Z")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("07:00"), on: .daily, after: now, offset: berlin),
                       try unix("2026-11-25T06:00:00Z"))
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("18:00"), on: .daily, after: now, offset: berlin),
                       try unix("2026-11-24T17:00:00Z"), "later today")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("07:00"), on: .weekends, after: now, offset: berlin),
                       try unix("2026-11-28T06:00:00Z"), "Saturday")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("17:00"), on: try AlarmDays(parsing: "tue"), after: now, offset: berlin),
                       try unix("2026-12-01T16:00:00Z"), "now is not after now: a week on")
        XCTAssertNil(AlarmSchedule.nextRing(of: try time("07:00"), on: AlarmDays(), after: now, offset: berlin))
    }

    func testASkippedTimeRingsOnceAfterTheGap() throws {
        let berlin = try offset("Europe/Berlin")
        // 2026-03-29: at 02:00 CET the clocks go to 03:00 CEST (01:00 UTC); 02:30 does not happen.
        let before = try unix("2026-03-28T22:00:00Z")
        let ring = try XCTUnwrap(AlarmSchedule.nextRing(of: try time("02:30"), on: .daily, after: before, offset: berlin))
        XCTAssertEqual(ring, try unix("2026-03-29T01:30:00Z"), "03:30 CEST")
        let next = try XCTUnwrap(AlarmSchedule.nextRing(of: try time("02:30"), on: .daily, after: ring, offset: berlin))
        XCTAssertEqual(next, try unix("2026-03-30T00:30:00Z"), "once: the next is Monday's 02:30 CEST")
        // A time just past the gap is not moved.
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("03:00"), on: .daily, after: before, offset: berlin),
                       try unix("2026-03-29T01:00:00Z"))
    }

    func testATimeThatHappensTwiceRingsTheFirstTimeOnly() throws {
        let berlin = try offset("Europe/Berlin")
        // 2026-10-25: at 03:00 CEST the clocks go back to 02:00 CET (01:00 UTC); 02:30 happens twice.
        let before = try unix("2026-10-24T22:00:00Z")
        let ring = try XCTUnwrap(AlarmSchedule.nextRing(of: try time("02:30"), on: .daily, after: before, offset: berlin))
        XCTAssertEqual(ring, try unix("2026-10-25T00:30:00Z"), "02:30 CEST")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("02:30"), on: .daily, after: ring, offset: berlin),
                       try unix("2026-10-26T01:30:00Z"), "not again at 02:30 CET")
    }

    func testZonesWestAndFarEastAndHalfHours() throws {
        let newYork = try offset("America/New_York")
        // 2026-03-08: 02:00 EST → 03:00 EDT (07:00 UTC).
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("02:15"), on: .daily, after: try unix("2026-03-08T05:00:00Z"), offset: newYork),
                       try unix("2026-03-08T07:15:00Z"), "03:15 EDT")
        let kolkata = try offset("Asia/Kolkata")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("06:00"), on: .daily, after: try unix("2026-11-24T00:00:00Z"), offset: kolkata),
                       try unix("2026-11-24T00:30:00Z"), "05:30 in Kolkata: 06:00 is half an hour on")
        let kiritimati = try offset("Pacific/Kiritimati")
        XCTAssertEqual(AlarmSchedule.nextRing(of: try time("07:00"), on: try AlarmDays(parsing: "wed"),
                                              after: try unix("2026-11-24T00:00:00Z"), offset: kiritimati),
                       try unix("2026-11-24T17:00:00Z"), "Wednesday 07:00 at UTC+14 is Tuesday 17:00 UTC")
    }

    func testEveryDayOfAYearRingsExactlyOnceAcrossBothChanges() throws {
        let berlin = try offset("Europe/Berlin")
        var ring = try unix("2026-01-01T00:00:00Z")
        var rings: [Int64] = []
        for _ in 0..<365 {
            ring = try XCTUnwrap(AlarmSchedule.nextRing(of: try time("02:30"), on: .daily, after: ring, offset: berlin))
            rings.append(ring)
        }
        let days = rings.map { AlarmSchedule.localDay(of: $0, offset: berlin).day }
        XCTAssertEqual(Set(days).count, 365, "one ring a local day")
        XCTAssertEqual(zip(days.dropFirst(), days).filter { $0 - $1 != 1 }.count, 0, "no day skipped")
    }

    func testLocalISOText() throws {
        let berlin = try offset("Europe/Berlin")
        XCTAssertEqual(LocalClock.iso8601(try unix("2026-11-25T06:00:00Z"), offset: berlin), "2026-11-25T07:00:00+01:00")
        XCTAssertEqual(LocalClock.iso8601(try unix("2026-07-01T06:00:00Z"), offset: berlin), "2026-07-01T08:00:00+02:00")
        let newYork = try offset("America/New_York")
        XCTAssertEqual(LocalClock.iso8601(try unix("2026-01-01T03:00:00Z"), offset: newYork), "2025-12-31T22:00:00-05:00")
    }
}
