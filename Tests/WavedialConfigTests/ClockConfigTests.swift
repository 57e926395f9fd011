import WavedialConfig
import WavedialCore
import XCTest

/// `[sleep]` and `[alarm]`: read, bounded, and unknown keys named.
final class ClockConfigTests: XCTestCase {
    func testReadsTheSleepAndAlarmKeys() throws {
        let configuration = try Configuration.parse("""
            [sleep]
            fade_seconds = 3
            [alarm]
            fade_in_seconds = 60
            station_timeout_seconds = 5
            tone_minutes = 10
            """)
        XCTAssertEqual(configuration.clock.sleepFadeSeconds, 3)
        XCTAssertEqual(configuration.clock.alarmFadeInSeconds, 60)
        XCTAssertEqual(configuration.clock.alarmStationTimeoutSeconds, 5)
        XCTAssertEqual(configuration.clock.alarmToneMinutes, 10)
        XCTAssertEqual(try Configuration.parse("").clock, ClockSettings())
    }

    func testOutOfRangeAndUnknownKeysAreErrors() {
        for text in ["[sleep]\nfade_seconds = -1", "[sleep]\nfade_seconds = 301", "[alarm]\nstation_timeout_seconds = 0",
                     "[alarm]\ntone_minutes = 100000", "[alarm]\nfade_in_seconds = \"30\"", "[alarm]\nsnooze = 5"] {
            XCTAssertThrowsError(try Configuration.parse(text), text) { error in
                let words = "\(error)"
                XCTAssertTrue(words.contains("line 2"), words)
            }
        }
    }
}
