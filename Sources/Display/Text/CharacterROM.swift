/// The character generator ROM of an HD44780-compatible controller: which character each code shows.
///
/// Codes 0x00–0x0F are CGRAM (custom glyphs) in both ROMs and never mapped here. A value type; any thread.
public enum CharacterROM: String, CaseIterable, Sendable {
    /// ROM code A00 (Japanese standard font): ASCII except ¥ at 0x5C and arrows at 0x7E/0x7F,
    /// half-width katakana, a few Greek and Latin letters (ä ö ü ñ β=ß μ °) and symbols.
    case a00
    /// ROM code A02 (European font): full ASCII, most of Latin-1, some Greek and Cyrillic, arrows, ♪ and ♥.
    case a02

    /// The ROM code that shows `character`, or nil when this ROM has no such character.
    public func code(for character: Character) -> UInt8? {
        switch self {
        case .a00: return Self.a00Codes[character]
        case .a02: return Self.a02Codes[character]
        }
    }

    /// The character shown by `code`, or nil for CGRAM codes and codes with no Unicode counterpart.
    public func character(for code: UInt8) -> Character? {
        switch self {
        case .a00: return Self.a00Characters[code]
        case .a02: return Self.a02Characters[code]
        }
    }

    // The first character listed for a code is the one `character(for:)` returns; the others are
    // look-alikes that fold onto it (ß onto A00's β, µ onto μ). The literals and the closure are
    // typed: inferred (`table += [ … ]`), Swift 6.0's type checker gives up on them after minutes.
    private static let a00Table: [(UInt8, [Character])] = {
        var table: [(UInt8, [Character])] = (0x20...0x7D).compactMap { (code: Int) -> (UInt8, [Character])? in
            code == 0x5C ? nil : (UInt8(code), [Character(UnicodeScalar(UInt8(code)))])
        }
        let extras: [(UInt8, [Character])] = [
            (0x5C, ["¥"]), (0x7E, ["→"]), (0x7F, ["←"]), (0xA5, ["・"]), (0xDF, ["°", "º"]),
            (0xE0, ["α"]), (0xE1, ["ä"]), (0xE2, ["ß", "β"]), (0xE3, ["ε"]), (0xE4, ["μ", "µ"]), (0xE5, ["σ"]),
            (0xE6, ["ρ"]), (0xE8, ["√"]), (0xEC, ["¢"]), (0xED, ["£"]), (0xEE, ["ñ"]), (0xEF, ["ö"]),
            (0xF2, ["θ"]), (0xF3, ["∞"]), (0xF4, ["Ω"]), (0xF5, ["ü"]), (0xF6, ["Σ"]), (0xF7, ["π"]),
            (0xFD, ["÷"]), (0xFF, ["█"]),
        ]
        table += extras
        return table
    }()

    private static let a02Table: [(UInt8, [Character])] = {
        var table: [(UInt8, [Character])] = (0x20...0x7E).map { (UInt8($0), [Character(UnicodeScalar(UInt8($0)))]) }
        let extras: [(UInt8, [Character])] = [
            (0x10, ["▶"]), (0x11, ["◀"]), (0x12, ["“"]), (0x13, ["”"]), (0x16, ["●"]), (0x18, ["↑"]), (0x19, ["↓"]),
            (0x1A, ["→"]), (0x1B, ["←"]), (0x1C, ["≤"]), (0x1D, ["≥"]), (0x1E, ["▲"]), (0x1F, ["▼"]), (0x7F, ["⌂"]),
            (0x90, ["α"]), (0x91, ["♪"]), (0x92, ["Γ"]), (0x93, ["π"]), (0x94, ["Σ"]), (0x95, ["σ"]), (0x96, ["♬", "♫"]),
            (0x97, ["τ"]), (0x99, ["θ"]), (0x9A, ["Ω"]), (0x9B, ["δ"]), (0x9C, ["∞"]), (0x9D, ["♥", "❤", "♡"]),
            (0x9E, ["ε"]), (0xA0, ["‖"]), (0xB0, ["°"]), (0xB5, ["μ", "µ"]), (0xB8, ["ω"]), (0xD7, ["×"]), (0xD8, ["Φ"]),
            (0xF7, ["÷"]),
        ]
        table += extras
        // 0xA1–0xBF follow Latin-1 except where the ROM has Cyrillic or Greek instead.
        let latin1Exceptions: Set<UInt8> = [0xA0, 0xAC, 0xAD, 0xAF, 0xB0, 0xB4, 0xB5, 0xB8, 0xD7, 0xD8, 0xF7]
        for code in 0xA1...0xFF where !latin1Exceptions.contains(UInt8(code)) {
            table.append((UInt8(code), [Character(UnicodeScalar(UInt8(code)))]))
        }
        return table
    }()

    private static let a00Codes = codes(a00Table)
    private static let a02Codes = codes(a02Table)
    private static let a00Characters = characters(a00Table)
    private static let a02Characters = characters(a02Table)

    private static func codes(_ table: [(UInt8, [Character])]) -> [Character: UInt8] {
        var codes: [Character: UInt8] = [:]
        for (code, characters) in table {
            for character in characters where codes[character] == nil {
                codes[character] = code
            }
        }
        return codes
    }

    private static func characters(_ table: [(UInt8, [Character])]) -> [UInt8: Character] {
        var characters: [UInt8: Character] = [:]
        for (code, list) in table where characters[code] == nil {
            characters[code] = list.first
        }
        return characters
    }
}
