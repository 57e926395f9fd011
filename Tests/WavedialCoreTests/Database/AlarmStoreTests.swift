import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// Alarms in SQLite: kept across a reopen (the file, as after a power cut), bounded, and checked by the table.
final class AlarmStoreTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory.remove()
    }

    func testAlarmsSurviveAReopenAndAreOrderedByTime() throws {
        let path = directory.path("wavedial.sqlite")
        do {
            let database = try WavedialDatabase.open(path: path)
            let late = try database.addAlarm(Alarm(time: try AlarmTime(parsing: "07:30"), days: .weekdays, stationuuid: "abc", stationName: "Jazz"))
            _ = try database.addAlarm(Alarm(time: try AlarmTime(parsing: "06:00:30"), days: .weekends))
            XCTAssertNotNil(late.id)
            XCTAssertTrue(try database.setAlarm(try XCTUnwrap(late.id), enabled: false))
        }
        let reopened = try WavedialDatabase.open(path: path)
        let alarms = try reopened.alarms()
        XCTAssertEqual(alarms.map(\.time.description), ["06:00:30", "07:30"])
        XCTAssertEqual(alarms.map(\.weekdays), [.weekends, .weekdays])
        XCTAssertEqual(alarms.map(\.enabled), [true, false])
        XCTAssertEqual(alarms[1].stationuuid, "abc")
        XCTAssertEqual(alarms[1].stationName, "Jazz")
        XCTAssertTrue(try reopened.removeAlarm(try XCTUnwrap(alarms[0].id)))
        XCTAssertFalse(try reopened.removeAlarm(try XCTUnwrap(alarms[0].id)), "gone already")
        XCTAssertFalse(try reopened.setAlarm(9999, enabled: true))
        XCTAssertEqual(try reopened.alarms().count, 1)
    }

    func testAlarmsAreBoundedAndNeedADay() throws {
        let database = try WavedialDatabase.inMemory()
        let time = try AlarmTime(parsing: "07:00")
        XCTAssertThrowsError(try database.addAlarm(Alarm(time: time, days: AlarmDays())))
        for _ in 0..<WavedialDatabase.alarmLimit { _ = try database.addAlarm(Alarm(time: time, days: .daily)) }
        XCTAssertThrowsError(try database.addAlarm(Alarm(time: time, days: .daily)))
        XCTAssertEqual(try database.alarms().count, WavedialDatabase.alarmLimit)
    }

    func testTheTableRefusesTimesOutOfRange() throws {
        let database = try WavedialDatabase.inMemory()
        XCTAssertThrowsError(try database.writer.write { db in
            try db.execute(sql: "INSERT INTO alarm(hour, minute, days) VALUES (24, 0, 127)")
        })
        XCTAssertThrowsError(try database.writer.write { db in
            try db.execute(sql: "INSERT INTO alarm(hour, minute, days) VALUES (7, 0, 0)")
        })
    }
}
