import WavedialCore
import XCTest

/// The sleep timer's durations, the alarms' times and days, as typed on the command line or sent to the socket.
final class ClockParsingTests: XCTestCase {
    func testSleepDurations() throws {
        XCTAssertEqual(try SleepDuration.seconds("30m"), 1800)
        XCTAssertEqual(try SleepDuration.seconds("90s"), 90)
        XCTAssertEqual(try SleepDuration.seconds("1h"), 3600)
        XCTAssertEqual(try SleepDuration.seconds("1h30m"), 5400)
        XCTAssertEqual(try SleepDuration.seconds(" 2h5m10s "), 7510)
        XCTAssertEqual(try SleepDuration.seconds("45"), 2700, "a bare number is minutes")
        XCTAssertEqual(try SleepDuration.seconds("24h"), 86_400)
        XCTAssertEqual(try SleepDuration.seconds("1H30M"), 5400)
    }

    func testSleepDurationsRefused() {
        for text in ["", "0", "0s", "m", "30x", "1h1h", "30m1h", "25h", "1441", "86401s", "-5m", "1.5h", "30 m",
                     "99999999999999999999999m", "9223372036854775807s", String(repeating: "1", count: 40) + "s", "1h\u{0}"] {
            XCTAssertThrowsError(try SleepDuration.seconds(text), text.debugDescription)
        }
    }

    func testSleepDurationText() {
        XCTAssertEqual(SleepDuration.text(5400), "1h30m")
        XCTAssertEqual(SleepDuration.text(1799), "29m59s")
        XCTAssertEqual(SleepDuration.text(45), "45s")
        XCTAssertEqual(SleepDuration.text(0), "0s")
        XCTAssertEqual(SleepDuration.text(3600), "1h")
    }

    func testAlarmTimes() throws {
        XCTAssertEqual(try AlarmTime(parsing: "07:00"), AlarmTime(hour: 7, minute: 0))
        XCTAssertEqual(try AlarmTime(parsing: "7:05"), AlarmTime(hour: 7, minute: 5))
        XCTAssertEqual(try AlarmTime(parsing: "23:59:59"), AlarmTime(hour: 23, minute: 59, second: 59))
        XCTAssertEqual(try AlarmTime(parsing: "00:00").description, "00:00")
        XCTAssertEqual(try AlarmTime(parsing: "06:30:15").description, "06:30:15")
        for text in ["24:00", "7", "07:60", "07:00:60", "7:5", "007:00", "07:00:00:00", ":", "", "ab:cd", "-1:00", "07:0٣",
                     "１2:00", "07:00 pm", String(repeating: "0", count: 100)] {
            XCTAssertThrowsError(try AlarmTime(parsing: text), text.debugDescription)
        }
    }

    func testAlarmDays() throws {
        XCTAssertEqual(try AlarmDays(parsing: "daily"), .daily)
        XCTAssertEqual(try AlarmDays(parsing: "mon-fri"), .weekdays)
        XCTAssertEqual(try AlarmDays(parsing: "sat,sun"), .weekends)
        XCTAssertEqual(try AlarmDays(parsing: "Sunday, Saturday"), .weekends)
        XCTAssertEqual(try AlarmDays(parsing: "wed"), AlarmDays(weekday: 3))
        XCTAssertEqual(try AlarmDays(parsing: "fri-mon"), [AlarmDays(weekday: 5), AlarmDays(weekday: 6), AlarmDays(weekday: 0), AlarmDays(weekday: 1)])
        XCTAssertEqual(try AlarmDays(parsing: "mon-wed,sat").description, "mon-wed,sat")
        XCTAssertEqual(AlarmDays.weekdays.description, "mon-fri")
        XCTAssertEqual(AlarmDays.weekends.description, "sat,sun")
        XCTAssertEqual(AlarmDays.daily.description, "daily")
        XCTAssertEqual(try AlarmDays(parsing: "mon,tue").description, "mon,tue")
        for text in ["", "monday-", "mo", "mon--fri", ",", "mon,", "funday", "mon-fri-sat", String(repeating: "mon,", count: 20)] {
            XCTAssertThrowsError(try AlarmDays(parsing: text), text.debugDescription)
        }
    }

    func testAlarmDaysRoundTripThroughTheirText() throws {
        for raw in 1...127 {
            let days = AlarmDays(rawValue: raw)
            XCTAssertEqual(try AlarmDays(parsing: days.description), days, days.description)
        }
    }
}
