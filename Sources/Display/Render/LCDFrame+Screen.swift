import Hardware

extension LCDFrame {
    /// The frame that shows `screen` on an LCD of `geometry` with character ROM `rom`.
    ///
    /// A character the ROM lacks (which `ROMTransliterator` never produces) shows as a blank, never as a
    /// raw byte. Any thread.
    public init(screen: Screen, geometry: LCDGeometry, rom: CharacterROM) {
        self.init(geometry: geometry)
        for row in 0..<min(screen.rows, geometry.rows) {
            for column in 0..<min(screen.columns, geometry.columns) {
                switch screen[row, column] {
                case let .character(character):
                    self[row, column] = .code(rom.code(for: character) ?? 0x20)
                case let .glyph(glyph):
                    self[row, column] = .glyph(LCDGlyph(rows: glyph.rows, fallback: rom.code(for: glyph.fallback) ?? 0x20))
                }
            }
        }
    }
}
