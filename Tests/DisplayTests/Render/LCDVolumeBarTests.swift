import Display
import Foundation
import Hardware
import WavedialTestSupport
import XCTest

/// The volume bar as the LCD itself holds it: the bytes of the CGRAM glyphs the bar cells point at, and
/// the DDRAM codes of the row, decoded by the HD44780 emulator from what went over the bus.
final class LCDVolumeBarTests: XCTestCase {
    private let clock = Date(timeIntervalSince1970: 1_795_304_460)
    private let full: [UInt8] = [0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00]

    private func lcd(_ state: DisplayViewState, _ geometry: LCDGeometry) throws -> HD44780Emulator {
        let lcd = HD44780Emulator(port: 0)
        let renderer = LCDScreenRenderer(display: HD44780(bus: PCF8574Bus(transport: lcd), geometry: geometry), rom: .a00)
        let composer = ScreenComposer(columns: geometry.columns, rows: geometry.rows, rom: .a00,
                                      timeZone: TimeZone(identifier: "UTC")!)
        try renderer.show(composer.compose(state, at: 0))
        lcd.advance(microseconds: 10_000)
        return lcd
    }

    private func state(volume: Int, muted: Bool = false) -> DisplayViewState {
        DisplayViewState(phase: .playing, clock: clock, frequency: 101.5, stationName: "Jazz FM",
                         nowPlaying: "So What", isFavorite: true, volume: volume, muted: muted)
    }

    /// Each bar cell is a custom character (code 0–7) whose eight CGRAM rows are the cell's pixel columns
    /// filled from the left; the percentage is plain ROM text after it.
    func testTheBarIsCGRAMGlyphsWithPartialCellsAndThePercentageIsText() throws {
        for (geometry, volume, fullCells, partialColumns) in [(LCDGeometry.size16x2, 60, 4, 1), (.size20x4, 60, 6, 3),
                                                             (.size16x2, 3, 0, 1), (.size20x4, 100, 11, 0)] {
            let lcd = try lcd(state(volume: volume), geometry)
            let row = lcd.codes(geometry)[geometry.rows - 1]
            let context = "\(geometry) \(volume)%"
            XCTAssertEqual(Array(row[0..<4]), Array("Vol ".utf8), context)
            for cell in 0..<fullCells {
                XCTAssertLessThan(row[4 + cell], 8, "\(context): cell \(cell) is a custom character")
                XCTAssertEqual(lcd.glyph(row[4 + cell]), full, "\(context): cell \(cell) is full")
            }
            let barWidth = geometry.columns - 9
            var next = 4 + fullCells
            if partialColumns > 0 {
                XCTAssertLessThan(row[next], 8, context)
                let pixels = UInt8(0x1F) & ~(UInt8(0x1F) >> UInt8(partialColumns))
                XCTAssertEqual(lcd.glyph(row[next]), Array(repeating: pixels, count: 7) + [0], context)
                next += 1
            }
            XCTAssertEqual(Array(row[next..<(4 + barWidth + 1)]), Array(repeating: 0x20, count: 4 + barWidth + 1 - next),
                           "\(context): the rest of the bar and the gap are blank")
            let percent = String(volume) + "%"
            XCTAssertEqual(Array(row[(geometry.columns - 4)...]),
                           Array((String(repeating: " ", count: 4 - percent.count) + percent).utf8), context)
        }
    }

    /// Successive detents move the bar by one pixel column at a time: only the partial cell's code
    /// changes, and the glyph it shows has one more column lit.
    func testNeighbouringLevelsDifferByPixelColumns() throws {
        let geometry = LCDGeometry.size20x4
        var lit: [Int] = []
        for volume in stride(from: 50, through: 60, by: 2) {
            let lcd = try lcd(state(volume: volume), geometry)
            let row = lcd.codes(geometry)[3]
            let columns = row[4..<15].reduce(0) { sum, code in
                guard code < 8 else { return sum }
                return sum + lcd.glyph(code)[0].nonzeroBitCount
            }
            lit.append(columns)
        }
        XCTAssertEqual(lit, [28, 29, 30, 31, 32, 33], "55 pixel columns over 11 cells: 2 % is about one column")
    }

    func testMutedIsWordsNotAnEmptyBar() throws {
        for geometry in [LCDGeometry.size16x2, .size20x4] {
            let lcd = try lcd(state(volume: 40, muted: true), geometry)
            let text = lcd.text(geometry)[geometry.rows - 1]
            XCTAssertEqual(text, "Vol Muted" + String(repeating: " ", count: geometry.columns - 13) + " 40%", "\(geometry)")
        }
    }
}
