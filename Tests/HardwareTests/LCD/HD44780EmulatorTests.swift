import Hardware
import WavedialTestSupport
import XCTest

/// The emulator is checked against hand-written byte streams (not the driver), so a driver bug
/// cannot hide behind an emulator written to agree with it.
final class HD44780EmulatorTests: XCTestCase {
    private let map = PCF8574Mapping.common

    /// The two port bytes of one nibble: E high with the data, then E low with the same data.
    private func strobe(_ nibble: UInt8, rs: Bool = false) -> [UInt8] {
        [map.portByte(nibble: nibble, registerSelect: rs, enable: true, backlightOn: true),
         map.portByte(nibble: nibble, registerSelect: rs, enable: false, backlightOn: true)]
    }

    private func byte(_ value: UInt8, rs: Bool = false) -> [UInt8] {
        strobe(value >> 4, rs: rs) + strobe(value & 0x0F, rs: rs)
    }

    /// RS set up while E is low, before the rising edge.
    private func select(_ rs: Bool) -> [UInt8] {
        [map.portByte(nibble: 0, registerSelect: rs, enable: false, backlightOn: true)]
    }

    /// The datasheet's 4-bit initialisation, written by hand.
    private func initialise(_ lcd: HD44780Emulator) throws {
        lcd.idle(microseconds: 50_000)
        try lcd.write(select(false) + strobe(0x3))
        lcd.idle(microseconds: 4_500)
        try lcd.write(strobe(0x3))
        lcd.idle(microseconds: 150)
        try lcd.write(strobe(0x3) + strobe(0x2) + byte(0x28) + byte(0x08) + byte(0x01))
        lcd.idle(microseconds: 2_000)
        try lcd.write(byte(0x06) + byte(0x0C))
    }

    func testDecodesInitialisationAndTextFromPowerOn() throws {
        let lcd = HD44780Emulator(port: 0, ddramFill: 0xFF)
        try initialise(lcd)
        try lcd.write(byte(0xC0) + select(true) + byte(0x48, rs: true) + byte(0x69, rs: true))
        XCTAssertEqual(lcd.violations, [])
        XCTAssertTrue(lcd.isFourBitAligned)
        XCTAssertTrue(lcd.twoLineMode)
        XCTAssertTrue(lcd.displayOn)
        XCTAssertFalse(lcd.cursorOn)
        XCTAssertTrue(lcd.backlightOn)
        XCTAssertEqual(lcd.text(.size16x2), ["                ", "Hi              "])
        XCTAssertEqual(lcd.instructions, [0x30, 0x30, 0x30, 0x20, 0x28, 0x08, 0x01, 0x06, 0x0C, 0xC0])
    }

    func testLatchesOnlyOnTheFallingEdgeOfEnable() throws {
        let lcd = HD44780Emulator(prior: .fourBit, port: 0)
        // Data toggling with E low latches nothing.
        try lcd.write([map.portByte(nibble: 0x0, registerSelect: false, enable: false, backlightOn: true),
                       map.portByte(nibble: 0x1, registerSelect: false, enable: false, backlightOn: true)])
        XCTAssertTrue(lcd.isFourBitAligned)
        XCTAssertEqual(lcd.instructions, [])
        // E high alone latches nothing either; the fall does.
        try lcd.write([map.portByte(nibble: 0x0, registerSelect: false, enable: true, backlightOn: true)])
        XCTAssertTrue(lcd.isFourBitAligned)
        try lcd.write([map.portByte(nibble: 0x0, registerSelect: false, enable: false, backlightOn: true)])
        XCTAssertFalse(lcd.isFourBitAligned)
        try lcd.write(strobe(0x1))
        XCTAssertEqual(lcd.instructions, [0x01])
    }

    func testFlagsInstructionsIssuedWhileBusy() throws {
        let lcd = HD44780Emulator(port: 0)
        try initialise(lcd)
        XCTAssertEqual(lcd.violations, [])
        // Clear takes 1.52 ms; the next instruction follows after 0.36 ms of bus time.
        try lcd.write(byte(0x01) + byte(0x80))
        XCTAssertEqual(lcd.violations.map(\.kind), [.busy, .busy])
    }

    func testFlagsChangesAtTheEdgesOfEnable() throws {
        let lcd = HD44780Emulator(prior: .fourBit, port: 0)
        // RS rising together with E.
        try lcd.write([map.portByte(nibble: 0x4, registerSelect: true, enable: true, backlightOn: true)])
        XCTAssertEqual(lcd.violations.map(\.kind), [.addressSetup])
        // Data changing together with E's fall.
        try lcd.write([map.portByte(nibble: 0x5, registerSelect: true, enable: false, backlightOn: true)])
        XCTAssertEqual(lcd.violations.map(\.kind), [.addressSetup, .hold])
    }

    func testEightBitModeReadsTheFloatingLowNibble() throws {
        let lcd = HD44780Emulator(prior: .eightBit, port: 0, floatingLowNibble: 0xC)
        try lcd.write(strobe(0x0))  // 0x0C: display on, cursor off, blink off
        XCTAssertEqual(lcd.instructions, [0x0C])
        XCTAssertTrue(lcd.displayOn)
        XCTAssertFalse(lcd.fourBitMode)
    }

    func testMidByteStateCompletesTheInterruptedByteFirst() throws {
        let lcd = HD44780Emulator(prior: .fourBitMidByte(highNibble: 0x1), port: 0)
        try lcd.write(strobe(0x8))  // completes 0x18: shift the display left
        XCTAssertEqual(lcd.instructions, [0x18])
        XCTAssertEqual(lcd.displayShift, 4)
        XCTAssertTrue(lcd.isFourBitAligned)
    }

    func testStoresCustomCharactersInCGRAM() throws {
        let lcd = HD44780Emulator(port: 0)
        try initialise(lcd)
        let heart: [UInt8] = [0x00, 0x0A, 0x1F, 0x1F, 0x0E, 0x04, 0x00, 0x00]
        // In typed parts: as one sum, Swift 6.0's type checker gives up on it.
        let setCGRAMAddress: [UInt8] = byte(0x40 | 2 << 3) + select(true)
        let glyph: [UInt8] = heart.flatMap { byte($0, rs: true) }
        let showCode2: [UInt8] = select(false) + byte(0x80) + select(true) + byte(0x02, rs: true)
        try lcd.write(setCGRAMAddress + glyph + showCode2)
        XCTAssertEqual(lcd.violations, [])
        XCTAssertEqual(lcd.glyph(2), heart)
        XCTAssertEqual(lcd.glyph(10), heart)
        XCTAssertEqual(lcd.codes(.size16x2)[0][0], 0x02)
    }

    func testFourRowDisplaysFoldTheTwoLines() throws {
        let lcd = HD44780Emulator(port: 0)
        try initialise(lcd)
        // Writing past the end of row 0 of a 20x4 continues on row 2.
        try lcd.write(byte(0x80 | 19) + select(true) + byte(0x41, rs: true) + byte(0x42, rs: true)
                      + select(false) + byte(0x80 | 0x54) + select(true) + byte(0x43, rs: true))
        let rows = lcd.text(.size20x4)
        XCTAssertEqual(rows[0].last, "A")
        XCTAssertEqual(rows[2].first, "B")
        XCTAssertEqual(rows[3].first, "C")
        // The same address is off screen on a 16x2.
        XCTAssertFalse(lcd.text(.size16x2).joined().contains("B"))
        XCTAssertEqual(lcd.violations, [])
    }

    func testFlagsAddressesOutsideDDRAM() throws {
        let lcd = HD44780Emulator(port: 0)
        try initialise(lcd)
        try lcd.write(byte(0x80 | 0x30))
        XCTAssertEqual(lcd.violations.map(\.kind), [.invalidAddress])
    }

    func testCountsBusTimeAtTheConfiguredClock() throws {
        let lcd = HD44780Emulator(busClockHertz: 100_000)
        try lcd.write([0, 0, 0, 0])
        // start + address (10 bits) + 4 × 9 bits + stop = 47 bits at 10 µs.
        XCTAssertEqual(lcd.timeMicroseconds, 470, accuracy: 0.001)
        XCTAssertEqual(lcd.bytesWritten, 4)
    }

    func testBacklightFollowsTheMappedBitAndPolarity() throws {
        let lcd = HD44780Emulator(mapping: .mjkdz, prior: .fourBit, port: 0)
        try lcd.write([PCF8574Mapping.mjkdz.portByte(nibble: 0, registerSelect: false, enable: false, backlightOn: true)])
        XCTAssertTrue(lcd.backlightOn)
        try lcd.write([PCF8574Mapping.mjkdz.portByte(nibble: 0, registerSelect: false, enable: false, backlightOn: false)])
        XCTAssertFalse(lcd.backlightOn)
    }
}
