import Foundation

/// Which PCF8574 port bit (P0–P7) drives which HD44780 pin on an I2C backpack.
///
/// Backpacks differ: the common one (PCF8574T "LCM1602") wires P0=RS P1=RW P2=E P3=backlight
/// P4–P7=D4–D7; others swap the halves or switch the backlight off with a high level.
/// A value type; any thread may use it.
public struct PCF8574Mapping: Hashable, Sendable, CustomStringConvertible {
    /// Port bit of RS (register select: 0 instruction, 1 data).
    public var registerSelect: Int
    /// Port bit of R/W (held low: the driver never reads).
    public var readWrite: Int
    /// Port bit of E (enable strobe; the controller latches on its falling edge).
    public var enable: Int
    /// Port bit of the backlight transistor.
    public var backlight: Int
    /// Port bits of D4, D5, D6, D7 in that order.
    public var data: [Int]
    /// True when a high level switches the backlight on.
    public var backlightActiveHigh: Bool

    /// The common backpack: P0=RS P1=RW P2=E P3=backlight P4–P7=D4–D7, backlight on when high.
    public static let common = PCF8574Mapping(unchecked: 0, 1, 2, 3, [4, 5, 6, 7], true)

    /// The "mjkdz" backpack: P0–P3=D4–D7 P4=E P5=RW P6=RS P7=backlight, backlight on when low.
    public static let mjkdz = PCF8574Mapping(unchecked: 6, 5, 4, 7, [0, 1, 2, 3], false)

    /// Creates a mapping, checking that it uses each of the eight port bits exactly once.
    ///
    /// - Throws: `PCF8574MappingError.invalid` when a bit is out of range or used twice.
    public init(registerSelect: Int, readWrite: Int, enable: Int, backlight: Int, data: [Int],
                backlightActiveHigh: Bool) throws {
        self.init(unchecked: registerSelect, readWrite, enable, backlight, data, backlightActiveHigh)
        let bits = [registerSelect, readWrite, enable, backlight] + data
        guard data.count == 4, bits.allSatisfy({ (0...7).contains($0) }), Set(bits).count == 8 else {
            throw PCF8574MappingError.invalid("each of P0–P7 must be used exactly once by rs, rw, e, bl, d4–d7")
        }
    }

    private init(unchecked rs: Int, _ rw: Int, _ e: Int, _ bl: Int, _ d: [Int], _ high: Bool) {
        registerSelect = rs
        readWrite = rw
        enable = e
        backlight = bl
        data = d
        backlightActiveHigh = high
    }

    /// Parses a preset name (`common`, `mjkdz`) or a pin list such as
    /// `rs=0,rw=1,e=2,bl=3,d4=4,d5=5,d6=6,d7=7` (append `,bl-low` for an active-low backlight).
    ///
    /// - Throws: `PCF8574MappingError.invalid` naming what is wrong.
    public init(parsing text: String) throws {
        switch text.lowercased() {
        case "common": self = .common; return
        case "mjkdz": self = .mjkdz; return
        default: break
        }
        var pins: [String: Int] = [:]
        var activeHigh = true
        for part in text.lowercased().split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            if item == "bl-low" { activeHigh = false; continue }
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let bit = Int(pair[1].trimmingCharacters(in: .whitespaces).drop(while: { $0 == "p" })) else {
                throw PCF8574MappingError.invalid("'\(item)' is not name=bit")
            }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            guard ["rs", "rw", "e", "bl", "d4", "d5", "d6", "d7"].contains(name) else {
                throw PCF8574MappingError.invalid("unknown pin '\(name)' (expected rs, rw, e, bl, d4–d7)")
            }
            pins[name] = bit
        }
        let missing = ["rs", "rw", "e", "bl", "d4", "d5", "d6", "d7"].filter { pins[$0] == nil }
        guard missing.isEmpty else {
            throw PCF8574MappingError.invalid("missing \(missing.joined(separator: ", "))")
        }
        try self.init(registerSelect: pins["rs"]!, readWrite: pins["rw"]!, enable: pins["e"]!, backlight: pins["bl"]!,
                      data: [pins["d4"]!, pins["d5"]!, pins["d6"]!, pins["d7"]!], backlightActiveHigh: activeHigh)
    }

    /// The port byte that puts `nibble` on D4–D7 with the given RS, E and backlight levels (R/W low).
    public func portByte(nibble: UInt8, registerSelect rs: Bool, enable e: Bool, backlightOn: Bool) -> UInt8 {
        var byte: UInt8 = 0
        for (index, bit) in data.enumerated() where nibble & (1 << index) != 0 {
            byte |= 1 << bit
        }
        if rs { byte |= 1 << registerSelect }
        if e { byte |= 1 << enable }
        if backlightOn == backlightActiveHigh { byte |= 1 << backlight }
        return byte
    }

    /// The nibble on D4–D7 in a port byte.
    public func nibble(in byte: UInt8) -> UInt8 {
        var nibble: UInt8 = 0
        for (index, bit) in data.enumerated() where byte & (1 << bit) != 0 {
            nibble |= 1 << index
        }
        return nibble
    }

    /// The level of one port bit in a byte.
    public func level(_ bit: Int, in byte: UInt8) -> Bool { byte & (1 << bit) != 0 }

    public var description: String {
        "rs=\(registerSelect),rw=\(readWrite),e=\(enable),bl=\(backlight),"
            + "d4=\(data[0]),d5=\(data[1]),d6=\(data[2]),d7=\(data[3])" + (backlightActiveHigh ? "" : ",bl-low")
    }
}

/// A backpack bit mapping that cannot be used.
public enum PCF8574MappingError: Error, Equatable, CustomStringConvertible {
    /// The mapping text or bits are wrong; the message says how.
    case invalid(String)

    public var description: String {
        switch self {
        case let .invalid(reason): return "invalid PCF8574 bit mapping: \(reason)"
        }
    }
}
