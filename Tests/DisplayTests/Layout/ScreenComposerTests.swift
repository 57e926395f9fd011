import Display
import Foundation
import XCTest

final class ScreenComposerTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    /// Saturday 21 November 2026, 23:41 UTC.
    private let evening = Date(timeIntervalSince1970: 1_795_304_460)

    private func lines(_ state: DisplayViewState, _ columns: Int, _ rows: Int, at time: Double = 0,
                       rom: CharacterROM = .a00) -> [String] {
        let composer = ScreenComposer(columns: columns, rows: rows, rom: rom, timeZone: utc)
        return TerminalRenderer(framed: false).lines(composer.compose(state, at: time))
    }

    private func playing(_ nowPlaying: String? = "Miles Davis – So What") -> DisplayViewState {
        DisplayViewState(phase: .playing, clock: evening, frequency: 101.5, stationName: "Jazz FM",
                         nowPlaying: nowPlaying, isFavorite: true)
    }

    func testPlayingOn16x2And20x4() {
        XCTAssertEqual(lines(playing(), 16, 2), ["101.5 Jazz FM   ", "▶ Miles Davis  ♥"])
        XCTAssertEqual(lines(playing(), 20, 4), [
            "101.5 MHz        ♥ ▶",
            "Jazz FM             ",
            "Miles Davis - So Wha",
            "Playing        23:41",
        ])
        var plain = playing(nil)
        plain.isFavorite = false
        XCTAssertEqual(lines(plain, 16, 2), ["101.5 Jazz FM   ", "▶ Playing       "])
    }

    func testTuningShowsNeedleStationAndPosition() {
        var state = DisplayViewState(phase: .tuning, clock: evening, frequency: 87.5, stationName: "Привет FM",
                                     bandPosition: 0)
        XCTAssertEqual(lines(state, 16, 2), [" 87.5 ┼---------", "Privet FM       "])
        state.bandPosition = 1
        state.frequency = 108
        state.band = .favorites
        XCTAssertEqual(lines(state, 16, 2), ["108.0♥---------┼", "Privet FM       "])
        state.bandPosition = 0.5
        state.frequency = 97.8
        XCTAssertEqual(lines(state, 20, 4), [
            "┼ 97.8 MHz Favorites",
            "Privet FM           ",
            "----------┼---------",
            "87.5           108.0",
        ])
        // Five needle positions per cell: neighbouring positions differ in the glyph, not the cell.
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00, timeZone: utc)
        state.bandPosition = 0
        let left = composer.compose(state, at: 0)
        state.bandPosition = 1.0 / 49
        let right = composer.compose(state, at: 0)
        XCTAssertEqual(left[0, 6], .glyph(.needle(column: 0)))
        XCTAssertEqual(right[0, 6], .glyph(.needle(column: 1)))
    }

    func testConnectingBufferingPausedAndFailed() {
        var state = playing()
        state.phase = .connecting
        XCTAssertEqual(lines(state, 16, 2)[1], "⧗ Connecting   ♥")
        state.phase = .buffering(fill: 0.456)
        XCTAssertEqual(lines(state, 16, 2)[1], "⧗ Buffer 46%   ♥")
        state.phase = .paused(timeShift: 83)
        XCTAssertEqual(lines(state, 16, 2)[1], "‖ Paused -1:23 ♥")
        XCTAssertEqual(lines(state, 20, 4)[3], "Paused -1:23   23:41")
        state.phase = .failed(.stationOffline)
        XCTAssertEqual(lines(state, 16, 2)[1], "✗ Station offl ♥")
        XCTAssertEqual(lines(state, 20, 4)[2], "Station offline     ")
        state.phase = .failed(.noNetwork)
        XCTAssertEqual(lines(state, 16, 2)[1], "✗ No network   ♥")
        state.phase = .failed(.formatNotSupported)
        XCTAssertEqual(lines(state, 20, 4)[2], "Format not supported")
    }

    func testConnectingSaysWhatIsHappening() {
        var state = playing(nil)
        state.phase = .connecting
        state.connectingDetail = "Connecting…"
        // Two rows: the detail instead of "Connecting" beside the hourglass ("…" is three dots in the ROM).
        XCTAssertEqual(lines(state, 16, 2), ["101.5 Jazz FM   ", "⧗ Connecting.. ♥"])
        // Four rows: the detail under the name, "Connecting" on the status line.
        state.connectingDetail = "Retrying (HTTP 503)…"
        XCTAssertEqual(lines(state, 20, 4), [
            "101.5 MHz        ♥ ⧗",
            "Jazz FM             ",
            "Retrying (HTTP 503).",
            "Connecting     23:41",
        ])
        // No detail yet: as before.
        state.connectingDetail = nil
        XCTAssertEqual(lines(state, 16, 2)[1], "⧗ Connecting   ♥")
        XCTAssertEqual(lines(state, 20, 4)[2], "                    ")
        // Only while connecting.
        state.connectingDetail = "Resolving host…"
        state.phase = .buffering(fill: nil)
        XCTAssertEqual(lines(state, 16, 2)[1], "⧗ Buffering    ♥")
    }

    func testIdleShowsClockAndDate() {
        let idle = DisplayViewState(phase: .idle, clock: evening)
        XCTAssertEqual(lines(idle, 16, 2), ["     23:41      ", "Sat 21 Nov 2026 "])
        XCTAssertEqual(lines(idle, 20, 4), [
            "                    ",
            "       23:41        ",
            "Saturday 21 November",
            "                    ",
        ])
    }

    func testWithoutAZoneTheClockIsTheSystemsLocalTime() {
        // POSIX TZ strings need no zone files: "XST-1" is one hour east of UTC, so 00:41 on Sunday.
        let saved = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", "XST-1", 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00)
        let screen = composer.compose(DisplayViewState(phase: .idle, clock: evening), at: 0)
        XCTAssertEqual(TerminalRenderer(framed: false).lines(screen), ["     00:41      ", "Sun 22 Nov 2026 "])
    }

    func testVolumeOverlayReplacesTheBottomRow() {
        var state = playing()
        state.volume = 60
        XCTAssertEqual(lines(state, 16, 2), ["101.5 Jazz FM   ", "Vol ████▏    60%"])
        XCTAssertEqual(lines(state, 20, 4)[3], "Vol ██████▌      60%")
        state.volume = 100
        XCTAssertEqual(lines(state, 20, 4)[3], "Vol ███████████ 100%")
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol ███████ 100%")
        state.volume = 0
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol           0%")
    }

    /// A banner ("No sound card") takes the bottom row for its moment, centred; the volume overlay goes over it.
    func testABannerTakesTheBottomRowUnderTheVolumeOverlay() {
        var state = playing()
        state.banner = "No sound card"
        XCTAssertEqual(lines(state, 16, 2), ["101.5 Jazz FM   ", " No sound card  "])
        XCTAssertEqual(lines(state, 20, 4)[3], "   No sound card    ")
        state.volume = 60
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol ████▏    60%")
    }

    /// A banner wider than the LCD (the setup file's problem) scrolls through its whole text, in a field of its
    /// own: the scrolling title under it does not restart it.
    func testALongBannerScrolls() {
        var state = playing("Miles Davis – So What, live at the Newport Jazz Festival")
        state.banner = "Setup file line 12: bad Wi-Fi password"
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00, timeZone: utc)
        let renderer = TerminalRenderer(framed: false)
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 0))[1], "Setup file line ")
        // Within the 10 s the banner shows, its end comes into view.
        let frames = stride(from: 0.0, through: 10, by: 0.1).map { renderer.lines(composer.compose(state, at: $0))[1] }
        XCTAssertTrue(frames.contains { $0.hasSuffix("Wi-Fi password") }, "\(frames)")
    }

    /// Full only at 100 %, empty only at 0 %: the ends of the bar say the ends of the range.
    func testVolumeBarIsEmptyOnlyAtZeroAndFullOnlyAtOneHundred() {
        var state = playing()
        state.volume = 1
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol ▏         1%")
        state.volume = 99
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol ██████▊  99%")
        state.volume = 250
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol ███████ 100%", "out of range is bounded")
        state.volume = -3
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol           0%")
    }

    /// Muted says so, with the level the radio comes back to, instead of an empty bar that reads as 0 %.
    func testMutedVolumeSaysMuted() {
        var state = playing()
        state.volume = 40
        state.muted = true
        XCTAssertEqual(lines(state, 16, 2)[1], "Vol Muted    40%")
        XCTAssertEqual(lines(state, 20, 4)[3], "Vol Muted        40%")
        state.volume = nil
        XCTAssertEqual(lines(state, 16, 2)[1], "▶ Miles Davis  ♥", "no overlay, no mute line")
    }

    /// The screen changes by itself only at `nextChange`: never while every field fits (the clock comes
    /// with the state), and at each step of a field that scrolls.
    func testNextChangeIsTheNextMarqueeStep() {
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00, timeZone: utc)
        _ = composer.compose(DisplayViewState(phase: .idle, clock: evening), at: 5)
        XCTAssertNil(composer.nextChange(after: 5))
        _ = composer.compose(playing("So What"), at: 5)
        XCTAssertNil(composer.nextChange(after: 5), "station and title fit their fields")
        var state = playing("Miles Davis – So What (Take 1, 1959)")
        state.stationName = "Jazz FM Berlin 24/7"
        var time = 10.0
        var screen = composer.compose(state, at: time)
        for _ in 0..<40 {
            guard let next = composer.nextChange(after: time) else { return XCTFail("two fields scroll") }
            XCTAssertGreaterThan(next, time)
            XCTAssertEqual(composer.compose(state, at: next - 0.001), screen, "nothing moves before \(next)")
            let moved = composer.compose(state, at: next)
            XCTAssertNotEqual(moved, screen, "a field steps at \(next)")
            (time, screen) = (next, moved)
        }
    }

    func testEachFieldScrollsOnItsOwnAndRestartsWhenItsTextChanges() {
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00,
                                      marquee: Marquee(stepsPerSecond: 4, startPause: 1, gap: 3), timeZone: utc)
        let renderer = TerminalRenderer(framed: false)
        var state = playing("Artist Name – A Long Title")
        state.stationName = "Radio Station Name"
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 100)), ["101.5 Radio Stat", "▶ Artist Name  ♥"])
        // The title's row steps half a beat (0.125 s) after the station's.
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 101.5)), ["101.5 dio Statio", "▶ rtist Name - ♥"])
        // New title at 101.5: its field starts over, the station keeps scrolling.
        state.nowPlaying = "Another Artist – Song"
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 101.5)), ["101.5 dio Statio", "▶ Another Arti ♥"])
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 102.0)), ["101.5 o Station ", "▶ Another Arti ♥"])
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 102.75)), ["101.5 tation Nam", "▶ Another Arti ♥"])
        XCTAssertEqual(renderer.lines(composer.compose(state, at: 102.875)), ["101.5 tation Nam", "▶ nother Artis ♥"])
    }

    func testTwoScrollingFieldsNeverStepInTheSameFrame() {
        for marquee in [Marquee(), Marquee(stepsPerSecond: 3, startPause: 1.2, gap: 4)] {
            let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00, marquee: marquee, timeZone: utc)
            var state = playing("Some Artist – A Title Long Enough To Scroll")
            state.stationName = "A Station Name That Scrolls"
            var previous = composer.compose(state, at: 3.21)
            var steps = [0, 0]
            for tick in 1...1200 {
                let screen = composer.compose(state, at: 3.21 + Double(tick) / 20)
                let changed = (0..<2).filter { screen.cells[$0] != previous.cells[$0] }
                XCTAssertLessThanOrEqual(changed.count, 1, "tick \(tick)")
                changed.forEach { steps[$0] += 1 }
                previous = screen
            }
            XCTAssertGreaterThan(steps[0], 50)
            XCTAssertGreaterThan(steps[1], 50)
        }
    }
}
