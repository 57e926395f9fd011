import Hardware

/// An HD44780 controller behind a PCF8574 I2C backpack, reconstructed from the exact bytes a driver writes.
///
/// It plays the backpack (each written byte appears on P0–P7 at the end of its ACK, so a byte takes
/// nine clocks) and the controller (nibbles latched on the falling edge of E, RS, the 4-/8-bit
/// interface state machine, DDRAM, CGRAM, address counter, entry mode, display shift). Time is
/// virtual: it advances with every clock of the bus and with `idle(microseconds:)`. Anything the
/// datasheet forbids is recorded in `violations`: an instruction issued before the previous one's
/// execution time elapsed, RS changed while E is high or together with E's rising edge (address
/// setup), RS or data changed together with E's falling edge (hold), R/W high, an address outside DDRAM.
///
/// Not thread-safe: one test drives it.
public final class HD44780Emulator: I2CTransport {
    /// What went wrong, when (virtual microseconds since power-on) and at which written byte.
    public struct Violation: Equatable, CustomStringConvertible {
        public enum Kind: Equatable { case busy, addressSetup, hold, read, invalidAddress }
        public let kind: Kind
        public let byteIndex: Int
        public let timeMicroseconds: Double
        public let detail: String
        public var description: String { "byte \(byteIndex) at \(timeMicroseconds) µs: \(kind) — \(detail)" }
    }

    /// The interface state the controller is in before the driver starts.
    public enum PriorState: Equatable {
        /// Just powered on: 8-bit interface, busy with its internal reset for 40 ms (the datasheet's wait).
        case powerOn
        /// Running in 8-bit mode.
        case eightBit
        /// Running in 4-bit mode, between bytes.
        case fourBit
        /// Running in 4-bit mode with the high nibble of a byte already latched (a crash mid-byte).
        case fourBitMidByte(highNibble: UInt8)
    }

    /// The backpack's wiring.
    public let mapping: PCF8574Mapping
    /// The SCL frequency the bus time is counted at.
    public let busClockHertz: Int
    /// What the controller reads on DB0–DB3 in 8-bit mode: on a backpack they are not connected.
    public var floatingLowNibble: UInt8

    // Bus and port.
    /// Virtual time since power-on, in microseconds.
    public private(set) var timeMicroseconds: Double = 0
    /// Data bytes received (address bytes not counted).
    public private(set) var bytesWritten = 0
    /// Write transactions received.
    public private(set) var transactions = 0
    private var port: UInt8

    // Controller registers, as the instructions set them.
    /// Function set DL=0.
    public private(set) var fourBitMode: Bool
    private var pendingHighNibble: UInt8?
    /// Function set N=1.
    public private(set) var twoLineMode = false
    /// Function set F=1.
    public private(set) var font5x10 = false
    /// Display control D, C, B.
    public private(set) var displayOn = false
    public private(set) var cursorOn = false
    public private(set) var blinkOn = false
    /// Entry mode I/D and S.
    public private(set) var entryIncrements = true
    public private(set) var entryShiftsDisplay = false
    /// The address counter and whether it points into CGRAM.
    public private(set) var addressCounter: UInt8 = 0
    public private(set) var addressingCGRAM = false
    /// How many positions the display is shifted left (0–39).
    public private(set) var displayShift = 0
    /// DDRAM by address (0x00–0x27 and 0x40–0x67 in two-line mode) and CGRAM (eight glyphs of eight rows).
    public private(set) var ddram = [UInt8](repeating: 0x20, count: 128)
    public private(set) var cgram = [UInt8](repeating: 0, count: 64)
    private var busyUntil: Double
    /// Everything the byte stream did that the datasheet forbids, in order.
    public private(set) var violations: [Violation] = []
    /// Every instruction byte the controller executed (RS low), in order.
    public private(set) var instructions: [UInt8] = []
    /// How many data bytes the controller stored.
    public private(set) var dataWrites = 0

    /// Creates the emulator in `prior` state with the backpack's port at `port` (0xFF after power-on:
    /// the PCF8574's quasi-bidirectional pins come up high, E included).
    public init(mapping: PCF8574Mapping = .common, busClockHertz: Int = 100_000, prior: PriorState = .powerOn,
                port: UInt8 = 0xFF, floatingLowNibble: UInt8 = 0x0, ddramFill: UInt8 = 0x20) {
        self.mapping = mapping
        self.busClockHertz = busClockHertz
        self.floatingLowNibble = floatingLowNibble & 0x0F
        self.port = port
        ddram = [UInt8](repeating: ddramFill, count: 128)
        switch prior {
        case .powerOn:
            fourBitMode = false
            busyUntil = 40_000
        case .eightBit:
            fourBitMode = false
            busyUntil = 0
            twoLineMode = true
            displayOn = true
        case .fourBit:
            fourBitMode = true
            busyUntil = 0
            twoLineMode = true
            displayOn = true
        case let .fourBitMidByte(highNibble):
            fourBitMode = true
            pendingHighNibble = highNibble & 0x0F
            busyUntil = 0
            twoLineMode = true
            displayOn = true
        }
        if prior != .powerOn {
            // Whatever a crashed program left behind: shifted, mid-line, counting backwards.
            displayShift = 3
            addressCounter = 0x45
            entryIncrements = false
        }
    }

    private var bitMicroseconds: Double { 1_000_000 / Double(busClockHertz) }

    // MARK: I2CTransport

    /// Takes one write transaction: start, address byte, `bytes` (each on the port after its ACK), stop.
    public func write(_ bytes: [UInt8]) throws {
        transactions += 1
        timeMicroseconds += bitMicroseconds * 10  // start condition and the address byte with its ACK
        for byte in bytes {
            timeMicroseconds += bitMicroseconds * 9
            apply(byte)
            bytesWritten += 1
        }
        timeMicroseconds += bitMicroseconds  // stop condition
    }

    public func idle(microseconds: Int) {
        timeMicroseconds += Double(microseconds)
    }

    /// Leaves the controller alone for `microseconds` (a test's stand-in for the time between frames).
    public func advance(microseconds: Double) {
        timeMicroseconds += microseconds
    }

    // MARK: The pins

    private func apply(_ byte: UInt8) {
        let old = port
        port = byte
        let e0 = mapping.level(mapping.enable, in: old), e1 = mapping.level(mapping.enable, in: byte)
        let rs0 = mapping.level(mapping.registerSelect, in: old), rs1 = mapping.level(mapping.registerSelect, in: byte)
        let d0 = mapping.nibble(in: old), d1 = mapping.nibble(in: byte)
        if mapping.level(mapping.readWrite, in: byte) {
            record(.read, "R/W high: a write-only driver must hold it low")
        }
        if e0 && e1 && rs0 != rs1 {
            record(.addressSetup, "RS changed while E was high")
        }
        if !e0 && e1 && rs0 != rs1 {
            record(.addressSetup, "RS changed together with E's rising edge")
        }
        if e0 && !e1 {
            if rs0 != rs1 || d0 != d1 {
                record(.hold, "RS or data changed together with E's falling edge")
            }
            latch(nibble: d0, registerSelect: rs0)
        }
    }

    // MARK: The controller

    private func latch(nibble: UInt8, registerSelect: Bool) {
        if timeMicroseconds < busyUntil {
            record(.busy, "nibble latched \(busyUntil - timeMicroseconds) µs before the previous operation finished")
        }
        if fourBitMode {
            if let high = pendingHighNibble {
                pendingHighNibble = nil
                execute(high << 4 | nibble, registerSelect: registerSelect)
            } else {
                pendingHighNibble = nibble
            }
        } else {
            execute(nibble << 4 | floatingLowNibble, registerSelect: registerSelect)
        }
    }

    private func execute(_ value: UInt8, registerSelect: Bool) {
        var duration: Double = 37
        if registerSelect {
            writeData(value)
            duration = 41
        } else {
            instructions.append(value)
            switch value {
            case 0x80...:
                addressingCGRAM = false
                addressCounter = value & 0x7F
                if !isValidDDRAM(addressCounter) {
                    record(.invalidAddress, "DDRAM address 0x\(String(addressCounter, radix: 16)) does not exist")
                }
            case 0x40...:
                addressingCGRAM = true
                addressCounter = value & 0x3F
            case 0x20...:
                let eightBit = value & 0x10 != 0
                fourBitMode = !eightBit
                pendingHighNibble = nil
                twoLineMode = value & 0x08 != 0
                font5x10 = value & 0x04 != 0
            case 0x10...:
                let right = value & 0x04 != 0
                if value & 0x08 != 0 {
                    displayShift = (displayShift + (right ? -1 : 1) + 40) % 40
                } else {
                    stepAddress(forward: right)
                }
            case 0x08...:
                displayOn = value & 0x04 != 0
                cursorOn = value & 0x02 != 0
                blinkOn = value & 0x01 != 0
            case 0x04...:
                entryIncrements = value & 0x02 != 0
                entryShiftsDisplay = value & 0x01 != 0
            case 0x02...:
                addressingCGRAM = false
                addressCounter = 0
                displayShift = 0
                duration = 1520
            case 0x01:
                for index in ddram.indices { ddram[index] = 0x20 }
                addressingCGRAM = false
                addressCounter = 0
                displayShift = 0
                entryIncrements = true
                duration = 1520
            default:
                break  // 0x00 is no instruction
            }
        }
        busyUntil = timeMicroseconds + duration
    }

    private func writeData(_ value: UInt8) {
        dataWrites += 1
        if addressingCGRAM {
            cgram[Int(addressCounter & 0x3F)] = value
            addressCounter = entryIncrements ? (addressCounter + 1) & 0x3F : (addressCounter &- 1) & 0x3F
            return
        }
        ddram[Int(addressCounter & 0x7F)] = value
        stepAddress(forward: entryIncrements)
        if entryShiftsDisplay {
            displayShift = (displayShift + (entryIncrements ? 1 : -1) + 40) % 40
        }
    }

    private func stepAddress(forward: Bool) {
        guard !addressingCGRAM else {
            addressCounter = forward ? (addressCounter + 1) & 0x3F : (addressCounter &- 1) & 0x3F
            return
        }
        if twoLineMode {
            switch (forward, addressCounter) {
            case (true, 0x27): addressCounter = 0x40
            case (true, 0x67): addressCounter = 0x00
            case (false, 0x40): addressCounter = 0x27
            case (false, 0x00): addressCounter = 0x67
            default: addressCounter = forward ? addressCounter + 1 : addressCounter - 1
            }
        } else {
            addressCounter = forward ? (addressCounter + 1) % 80 : (addressCounter + 79) % 80
        }
    }

    private func isValidDDRAM(_ address: UInt8) -> Bool {
        twoLineMode ? (address <= 0x27 || (0x40...0x67).contains(address)) : address < 80
    }

    private func record(_ kind: Violation.Kind, _ detail: String) {
        violations.append(Violation(kind: kind, byteIndex: bytesWritten, timeMicroseconds: timeMicroseconds,
                                    detail: detail))
    }

    // MARK: What is shown

    /// True when the controller is in 4-bit mode and waiting for the high nibble of a new byte.
    public var isFourBitAligned: Bool { fourBitMode && pendingHighNibble == nil }

    /// The backlight level the backpack drives.
    public var backlightOn: Bool { mapping.level(mapping.backlight, in: port) == mapping.backlightActiveHigh }

    /// The character codes visible on a display of `geometry`, honouring the display shift
    /// (two-line mode: row r shows its 40-byte line from the row's offset).
    public func codes(_ geometry: LCDGeometry) -> [[UInt8]] {
        (0..<geometry.rows).map { row in
            let line = row % 2 == 0 ? 0x00 : 0x40
            let offset = row >= 2 ? geometry.columns : 0
            return (0..<geometry.columns).map { column in
                ddram[line + (offset + column + displayShift) % 40]
            }
        }
    }

    /// The 5x8 pattern (eight rows of five bits) of custom character `code` (0–7, or 8–15 mirrored).
    public func glyph(_ code: UInt8) -> [UInt8] {
        let base = Int(code & 0x07) * 8
        return cgram[base..<base + 8].map { $0 & 0x1F }
    }

    /// The visible screen as text for quick assertions: codes 0x20–0x7D as ASCII, every other code as "·".
    public func text(_ geometry: LCDGeometry) -> [String] {
        codes(geometry).map { row in
            String(row.map { (0x20...0x7D).contains($0) ? Character(UnicodeScalar($0)) : "·" })
        }
    }
}
