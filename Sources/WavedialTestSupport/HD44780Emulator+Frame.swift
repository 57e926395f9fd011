import Hardware

extension HD44780Emulator {
    /// The cells of `frame` the emulated display does not show as asked: a code must be in DDRAM as is; a
    /// glyph must be a CGRAM code whose pattern is the glyph's, or, when the driver ran out of slots,
    /// the glyph's fallback code. Also checks that the display is on.
    public func mismatches(_ frame: LCDFrame) -> [(row: Int, column: Int)] {
        let shown = codes(frame.geometry)
        var wrong: [(row: Int, column: Int)] = []
        for row in 0..<frame.geometry.rows {
            for column in 0..<frame.geometry.columns {
                let code = shown[row][column]
                let right: Bool
                switch frame[row, column] {
                case let .code(expected):
                    right = code == expected
                case let .glyph(glyph):
                    right = code < 0x10 ? self.glyph(code) == glyph.rows : code == glyph.fallback
                }
                if !right || !displayOn {
                    wrong.append((row, column))
                }
            }
        }
        return wrong
    }
}
