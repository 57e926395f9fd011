import Display
import Hardware

extension HD44780Emulator {
    /// The emulated display read back as terminal text: ROM codes through `rom`, CGRAM codes as the symbol
    /// of the `Glyph` whose pattern they hold ("?" for anything unknown). Equal to
    /// `TerminalRenderer(framed: false).lines(screen)` exactly when the LCD shows `screen`.
    public func terminalLines(_ geometry: LCDGeometry, rom: CharacterROM) -> [String] {
        codes(geometry).map { row in
            String(row.map { code -> Character in
                if code < 0x10 {
                    let pattern = glyph(code)
                    return Glyph.all.first { $0.rows == pattern }?.symbol ?? "?"
                }
                return rom.character(for: code) ?? "?"
            })
        }
    }
}
