import Display
import Foundation
import Hardware
import WavedialTestSupport
import XCTest

/// Every layout, on every display size and ROM, shows on the emulated LCD exactly what the terminal shows.
final class LCDScreenRendererTests: XCTestCase {
    private let clock = Date(timeIntervalSince1970: 1_795_304_460)

    private var states: [DisplayViewState] {
        let playing = DisplayViewState(phase: .playing, clock: clock, frequency: 101.5,
                                       stationName: "Радио Маяк – Москва", nowPlaying: "Sigur Rós – Hoppípolla",
                                       isFavorite: true)
        var all = [DisplayViewState(phase: .idle, clock: clock), playing]
        for phase: DisplayViewState.Phase in [.connecting, .buffering(fill: 0.3), .paused(timeShift: 754),
                                              .failed(.stationOffline), .failed(.formatNotSupported)] {
            var state = playing
            state.phase = phase
            all.append(state)
        }
        var tuning = playing
        tuning.phase = .tuning
        tuning.bandPosition = 0.37
        all.append(tuning)
        tuning.band = .favorites
        all.append(tuning)
        var volume = playing
        volume.volume = 73
        all.append(volume)
        volume.muted = true
        all.append(volume)
        return all
    }

    func testEveryLayoutLooksTheSameOnTheLCDAndInTheTerminal() throws {
        for geometry in LCDGeometry.supported {
            for rom in CharacterROM.allCases {
                let lcd = HD44780Emulator(prior: .fourBitMidByte(highNibble: 0x4), port: 0)
                let renderer = LCDScreenRenderer(
                    display: HD44780(bus: PCF8574Bus(transport: lcd), geometry: geometry), rom: rom)
                let composer = ScreenComposer(columns: geometry.columns, rows: geometry.rows, rom: rom,
                                              timeZone: TimeZone(identifier: "UTC")!)
                for (index, state) in states.enumerated() {
                    // Each state for a few seconds, so the marquees run, at 10 frames a second.
                    for tick in 0..<40 {
                        let screen = composer.compose(state, at: Double(index * 10) + Double(tick) / 10)
                        try renderer.show(screen)
                        lcd.advance(microseconds: 100_000)
                        XCTAssertEqual(lcd.terminalLines(geometry, rom: rom), TerminalRenderer(framed: false).lines(screen),
                                       "\(geometry) \(rom) state \(index) tick \(tick)")
                    }
                }
                XCTAssertEqual(lcd.violations.filter { $0.byteIndex > 2 }, [], "\(geometry) \(rom)")
            }
        }
    }

    func testAMarqueeStepRewritesOnlyItsField() throws {
        let geometry = LCDGeometry.size16x2
        let lcd = HD44780Emulator(port: 0)
        let renderer = LCDScreenRenderer(display: HD44780(bus: PCF8574Bus(transport: lcd), geometry: geometry),
                                         rom: .a00)
        let composer = ScreenComposer(columns: 16, rows: 2, rom: .a00,
                                      marquee: Marquee(stepsPerSecond: 4, startPause: 1, gap: 3))
        var state = states[1]
        state.stationName = "Jazz FM"
        try renderer.show(composer.compose(state, at: 0))
        var steps = 0
        for tick in 1...200 {
            let report = try renderer.show(composer.compose(state, at: Double(tick) / 20))
            guard report.cellsWritten > 0 else { continue }
            steps += 1
            // At most the 12-cell title field: one move (4 bytes), two RS changes, 4 bytes a cell.
            XCTAssertLessThanOrEqual(report.cellsWritten, 12)
            XCTAssertLessThanOrEqual(report.bytes, 4 + 2 + 12 * 4)
            XCTAssertEqual(report.glyphsLoaded, 0)
        }
        XCTAssertGreaterThan(steps, 20)
    }
}
