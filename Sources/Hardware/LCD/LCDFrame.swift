/// What a character display should show: one cell per position, each a ROM character code or a custom glyph.
///
/// A value type; any thread may build one.
public struct LCDFrame: Hashable, Sendable {
    /// One position on the display.
    public enum Cell: Hashable, Sendable {
        /// A character from the controller's ROM (0x20–0xFF; 0x00–0x0F are CGRAM and not allowed here).
        case code(UInt8)
        /// A custom 5x8 glyph, loaded into one of the eight CGRAM slots while it is on screen.
        case glyph(LCDGlyph)
    }

    public let geometry: LCDGeometry
    /// `geometry.rows` rows of `geometry.columns` cells.
    public private(set) var cells: [[Cell]]

    /// A frame of blanks.
    public init(geometry: LCDGeometry) {
        self.geometry = geometry
        cells = Array(repeating: Array(repeating: .code(0x20), count: geometry.columns), count: geometry.rows)
    }

    /// The cell at `row`, `column`; setting a code below 0x10 stores a blank instead, since those codes
    /// would show whatever CGRAM holds.
    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row][column] }
        set {
            if case let .code(code) = newValue, code < 0x10 {
                cells[row][column] = .code(0x20)
            } else {
                cells[row][column] = newValue
            }
        }
    }
}

/// A custom 5x8 character: eight rows of five pixels (bit 4 is the left column), and a ROM code to show
/// instead when more than eight different glyphs are on screen at once.
public struct LCDGlyph: Hashable, Sendable {
    /// Eight rows, top first, low five bits used.
    public let rows: [UInt8]
    /// The ROM character shown when no CGRAM slot is free.
    public let fallback: UInt8

    /// Creates a glyph; `rows` is padded or cut to eight rows and masked to five bits.
    public init(rows: [UInt8], fallback: UInt8) {
        let padded = Array((rows + Array(repeating: 0, count: 8)).prefix(8))
        self.rows = padded.map { $0 & 0x1F }
        self.fallback = fallback < 0x10 ? 0x20 : fallback
    }
}
