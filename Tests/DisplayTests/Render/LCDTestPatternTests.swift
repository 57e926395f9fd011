import Display
import Hardware
import WavedialTestSupport
import XCTest

final class LCDTestPatternTests: XCTestCase {
    func testShowsEveryCellEveryCharacterEveryGlyphAndBlinks() throws {
        for geometry in [LCDGeometry.size16x2, .size20x4] {
            for rom in CharacterROM.allCases {
                let lcd = HD44780Emulator(port: 0)
                let display = HD44780(bus: PCF8574Bus(transport: lcd), geometry: geometry)
                var codesSeen = Set<UInt8>()
                var glyphsSeen = Set<[UInt8]>()
                var cellsLit = Set<Int>()
                var backlight: [Bool] = []
                for step in LCDTestPattern(geometry: geometry, rom: rom).steps {
                    switch step.action {
                    case let .show(frame):
                        try display.render(frame)
                        XCTAssertEqual(lcd.mismatches(frame).count, 0, step.caption)
                        for (row, codes) in lcd.codes(geometry).enumerated() {
                            for (column, code) in codes.enumerated() {
                                if code < 0x10 { glyphsSeen.insert(lcd.glyph(code)) } else { codesSeen.insert(code) }
                                if code == 0xFF || (code < 0x10 && lcd.glyph(code) == Glyph.level(columns: 5).rows) {
                                    cellsLit.insert(row * 100 + column)
                                }
                            }
                        }
                    case let .backlight(on):
                        try display.setBacklight(on)
                        backlight.append(lcd.backlightOn)
                    }
                }
                XCTAssertEqual(codesSeen, Set(0x10...0xFF), "\(geometry) \(rom)")
                XCTAssertEqual(glyphsSeen, Set(Glyph.all.map(\.rows)), "\(geometry) \(rom)")
                XCTAssertEqual(cellsLit.count, geometry.rows * geometry.columns, "\(geometry) \(rom)")
                XCTAssertEqual(backlight, [false, true, false, true, false, true])
                XCTAssertEqual(lcd.violations, [])
            }
        }
    }
}
