import Hardware
import WavedialTestSupport
import XCTest

final class HD44780Tests: XCTestCase {
    private let heart = LCDGlyph(rows: [0x00, 0x0A, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00], fallback: 0x2A)
    private let play = LCDGlyph(rows: [0x08, 0x0C, 0x0E, 0x0F, 0x0E, 0x0C, 0x08, 0x00], fallback: 0x3E)
    private let pause = LCDGlyph(rows: [0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x00], fallback: 0x7C)

    private func text(_ lines: [String], _ geometry: LCDGeometry) -> LCDFrame {
        var frame = LCDFrame(geometry: geometry)
        for (row, line) in lines.enumerated() {
            for (column, scalar) in line.unicodeScalars.prefix(geometry.columns).enumerated() {
                frame[row, column] = .code(UInt8(scalar.value))
            }
        }
        return frame
    }

    private func driver(_ emulator: HD44780Emulator, _ geometry: LCDGeometry = .size16x2) -> HD44780 {
        HD44780(bus: PCF8574Bus(transport: emulator, mapping: emulator.mapping), geometry: geometry)
    }

    func testInitialisesFromAnyPriorState() throws {
        var priors: [HD44780Emulator.PriorState] = [.powerOn, .eightBit, .fourBit]
        priors += (0...15).map { .fourBitMidByte(highNibble: UInt8($0)) }
        let frame = text(["Any prior state", "comes up clean"], .size16x2)
        for prior in priors {
            for port: UInt8 in [0xFF, 0x00, 0xA5, 0x5A] {
                for floating: UInt8 in [0x0, 0xF] {
                    let lcd = HD44780Emulator(prior: prior, port: port, floatingLowNibble: floating, ddramFill: 0x23)
                    try driver(lcd).render(frame)
                    let context = "prior \(prior), port \(port), DB0–DB3 \(floating)"
                    XCTAssertEqual(lcd.text(.size16x2), ["Any prior state ", "comes up clean  "], context)
                    XCTAssertTrue(lcd.isFourBitAligned, context)
                    XCTAssertTrue(lcd.twoLineMode, context)
                    XCTAssertFalse(lcd.font5x10, context)
                    XCTAssertTrue(lcd.displayOn && !lcd.cursorOn && !lcd.blinkOn, context)
                    XCTAssertTrue(lcd.entryIncrements && !lcd.entryShiftsDisplay, context)
                    XCTAssertEqual(lcd.displayShift, 0, context)
                    // Only the first nibble (bytes 0–2) may do something undefined: its first byte meets a port
                    // left in an unknown state, and it may complete a byte a crashed program began.
                    XCTAssertEqual(lcd.violations.filter { $0.byteIndex > 2 }, [], context)
                }
            }
        }
    }

    func testWritesOnlyChangedCellsWithFewCursorMoves() throws {
        let lcd = HD44780Emulator(port: 0)
        let display = driver(lcd)
        try display.render(text(["Radio Bob 101.5", "Artist - Title"], .size16x2))
        let same = try display.render(text(["Radio Bob 101.5", "Artist - Title"], .size16x2))
        XCTAssertEqual(same.bytes, 0)
        XCTAssertEqual(same.cellsWritten, 0)

        // Two changes one cell apart: the cell between is rewritten instead of moving the cursor twice.
        let two = try display.render(text(["Radio Bob 101.5", "Artesx - Title"], .size16x2))
        XCTAssertEqual(two.cursorMoves, 1)
        XCTAssertEqual(two.cellsWritten, 3)
        XCTAssertEqual(lcd.text(.size16x2), ["Radio Bob 101.5 ", "Artesx - Title  "])

        // A change right where the cursor stopped needs no move at all.
        let next = try display.render(text(["Radio Bob 101.5", "Artesx-- Title"], .size16x2))
        XCTAssertEqual(next.cursorMoves, 0)
        XCTAssertEqual(next.cellsWritten, 1)
        XCTAssertEqual(lcd.violations, [])
    }

    func testFourRowDisplaysContinueFromRowZeroIntoRowTwoWithoutAMove() throws {
        let lcd = HD44780Emulator(port: 0)
        let display = driver(lcd, .size20x4)
        try display.render(text(["", "", "", ""], .size20x4))
        // The last cell of row 0 and the first of row 2 are neighbours in DDRAM (0x13, 0x14).
        let report = try display.render(text([String(repeating: " ", count: 19) + "A", "", "B", ""], .size20x4))
        XCTAssertEqual(report.cursorMoves, 1)
        XCTAssertEqual(report.cellsWritten, 2)
        XCTAssertEqual(lcd.text(.size20x4)[0].last, "A")
        XCTAssertEqual(lcd.text(.size20x4)[2].first, "B")
    }

    func testAllocatesGlyphsPerFrameAndReusesSlots() throws {
        let lcd = HD44780Emulator(port: 0)
        let display = driver(lcd)
        var frame = text(["101.5", ""], .size16x2)
        frame[0, 14] = .glyph(heart)
        frame[0, 15] = .glyph(play)
        let first = try display.render(frame)
        XCTAssertEqual(first.glyphsLoaded, 2)
        XCTAssertEqual(lcd.mismatches(frame).count, 0)

        XCTAssertEqual(try display.render(frame).glyphsLoaded, 0)

        frame[0, 15] = .glyph(pause)
        let swapped = try display.render(frame)
        XCTAssertEqual(swapped.glyphsLoaded, 1)
        XCTAssertEqual(lcd.mismatches(frame).count, 0)

        // Nine different glyphs: eight get slots, the ninth shows its fallback.
        var crowded = LCDFrame(geometry: .size16x2)
        let glyphs = (0..<9).map { LCDGlyph(rows: [UInt8($0), 0x1F, UInt8($0)], fallback: 0x30 + UInt8($0)) }
        for (index, glyph) in glyphs.enumerated() {
            crowded[1, index] = .glyph(glyph)
        }
        try display.render(crowded)
        XCTAssertEqual(lcd.mismatches(crowded).count, 0)
        XCTAssertEqual(lcd.codes(.size16x2)[1].filter { $0 < 0x10 }.count, 8)
        XCTAssertEqual(lcd.violations, [])
    }

    func testRandomFrameSequencesAlwaysShowExactly() throws {
        var random = SplitMix64(seed: 0x5EED)
        // A typed closure: inferred, Swift 6.0 takes 1.4 s to type-check it.
        let pool = (0..<11).map { (i: Int) -> LCDGlyph in LCDGlyph(rows: [UInt8(i), UInt8(i * 3), 0x11], fallback: 0x41 + UInt8(i)) }
        for geometry in LCDGeometry.supported {
            let lcd = HD44780Emulator(prior: .fourBitMidByte(highNibble: 0x0), port: 0x00)
            let bus = PCF8574Bus(transport: lcd)
            let display = HD44780(bus: bus, geometry: geometry)
            var frame = LCDFrame(geometry: geometry)
            for step in 0..<200 {
                for _ in 0..<Int(random.next() % 12) {
                    let row = Int(random.next() % UInt64(geometry.rows))
                    let column = Int(random.next() % UInt64(geometry.columns))
                    frame[row, column] = random.next() % 5 == 0
                        ? .glyph(pool[Int(random.next() % UInt64(pool.count))])
                        : .code(UInt8(0x20 + random.next() % 0xDF))
                }
                let startTime = lcd.timeMicroseconds
                let report = try display.render(frame)
                XCTAssertEqual(lcd.mismatches(frame).count, 0, "\(geometry) step \(step)")
                // The driver's cost report agrees with the emulated bus clock.
                XCTAssertEqual(report.busMicroseconds + Double(report.waitMicroseconds),
                               lcd.timeMicroseconds - startTime, accuracy: 0.01)
                lcd.advance(microseconds: 250_000)
            }
            XCTAssertEqual(lcd.violations.filter { $0.byteIndex > 0 }, [], "\(geometry)")
        }
    }

    func testRecoversFromABusErrorWithAFullRedraw() throws {
        let lcd = HD44780Emulator(port: 0)
        let flaky = FlakyTransport(lcd)
        let display = HD44780(bus: PCF8574Bus(transport: flaky), geometry: .size16x2)
        try display.render(text(["before", ""], .size16x2))
        flaky.failNext = true
        XCTAssertThrowsError(try display.render(text(["during", ""], .size16x2)))
        let after = try display.render(text(["after", "the error"], .size16x2))
        XCTAssertTrue(after.initialised)
        XCTAssertEqual(lcd.text(.size16x2), ["after           ", "the error       "])
    }

    func testBacklightSwitchesWithoutDisturbingTheController() throws {
        let lcd = HD44780Emulator(port: 0)
        let display = driver(lcd)
        try display.render(text(["lit", ""], .size16x2))
        let instructions = lcd.instructions.count
        try display.setBacklight(false)
        XCTAssertFalse(lcd.backlightOn)
        try display.setBacklight(true)
        XCTAssertTrue(lcd.backlightOn)
        XCTAssertEqual(lcd.instructions.count, instructions)
        XCTAssertEqual(lcd.text(.size16x2)[0], "lit             ")
        XCTAssertEqual(lcd.violations, [])
    }

    func testOtherBackpackMappingsDecodeTheSame() throws {
        let lcd = HD44780Emulator(mapping: .mjkdz, port: 0)
        try driver(lcd, .size20x4).render(text(["row 0", "row 1", "row 2", "row 3"], .size20x4))
        XCTAssertEqual(lcd.text(.size20x4).map { $0.trimmingCharacters(in: .whitespaces) },
                       ["row 0", "row 1", "row 2", "row 3"])
        XCTAssertTrue(lcd.backlightOn)
    }
}

/// Fails one write on request, passing everything else to the emulator.
private final class FlakyTransport: I2CTransport {
    let target: HD44780Emulator
    var failNext = false
    init(_ target: HD44780Emulator) { self.target = target }
    func write(_ bytes: [UInt8]) throws {
        if failNext {
            failNext = false
            throw I2CError(function: "write", path: "/dev/i2c-test", code: 121)
        }
        try target.write(bytes)
    }
    func idle(microseconds: Int) { target.idle(microseconds: microseconds) }
}

/// A small seeded generator so random sequences repeat exactly.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
