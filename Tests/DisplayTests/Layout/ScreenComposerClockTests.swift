import Display
import Foundation
import XCTest

/// The clock radio on the LCD: the next alarm with a bell on the idle clock, the sleep mark, on 16x2 and 20x4.
final class ScreenComposerClockTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    /// Saturday 21 November 2026, 23:41 UTC.
    private let evening = Date(timeIntervalSince1970: 1_795_304_460)

    private func lines(_ state: DisplayViewState, _ columns: Int, _ rows: Int) -> [String] {
        let composer = ScreenComposer(columns: columns, rows: rows, rom: .a00, timeZone: utc)
        return TerminalRenderer(framed: false).lines(composer.compose(state, at: 0))
    }

    func testTheNextAlarmOnTheIdleClock() {
        var state = DisplayViewState(phase: .idle, clock: evening)
        state.nextAlarm = "Mon 07:00"
        XCTAssertEqual(lines(state, 16, 2), ["23:41 ⍾Mon 07:00", "Sat 21 Nov 2026 "])
        XCTAssertEqual(lines(state, 20, 2), ["  23:41 ⍾Mon 07:00  ", "  Sat 21 Nov 2026   "])
        XCTAssertEqual(lines(state, 20, 4), [
            "                    ",
            "       23:41        ",
            "Saturday 21 November",
            "     ⍾Mon 07:00     ",
        ])
        state.nextAlarm = nil
        XCTAssertEqual(lines(state, 16, 2), ["     23:41      ", "Sat 21 Nov 2026 "], "no alarm: as before")
    }

    func testTheSleepMark() {
        var idle = DisplayViewState(phase: .idle, clock: evening)
        idle.sleeping = true
        XCTAssertEqual(lines(idle, 16, 2).first, "     23:41     ᶻ")
        var playing = DisplayViewState(phase: .playing, clock: evening, frequency: 101.5, stationName: "Jazz FM",
                                       nowPlaying: "Miles Davis – So What", isFavorite: true)
        playing.sleeping = true
        XCTAssertEqual(lines(playing, 16, 2), ["101.5 Jazz FM   ", "▶ Miles Davis ᶻ♥"])
        XCTAssertEqual(lines(playing, 20, 4).first, "101.5 MHz        ♥ᶻ▶")
    }
}
