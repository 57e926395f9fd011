/// What the display shows, independent of how: rows of cells, each a ROM character or a glyph.
///
/// The LCD driver and the terminal renderer both draw a `Screen`, so they always show the same thing.
/// A value type; any thread may build one.
public struct Screen: Hashable, Sendable {
    /// One position.
    public enum Cell: Hashable, Sendable {
        /// A character the chosen ROM has (text passes through `ROMTransliterator` first).
        case character(Character)
        /// A custom glyph.
        case glyph(Glyph)
    }

    public let columns: Int
    public let rows: Int
    public private(set) var cells: [[Cell]]

    /// A blank screen.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: .character(" "), count: columns), count: rows)
    }

    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row][column] }
        set {
            guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
            cells[row][column] = newValue
        }
    }

    /// Writes `text` from `column` on `row`, cut or padded with blanks to `width` (default: to the end of the row).
    public mutating func write<Text: Collection>(_ text: Text, row: Int, column: Int = 0, width: Int? = nil)
    where Text.Element == Character {
        let width = min(width ?? columns - column, columns - column)
        guard width > 0 else { return }
        var characters = Array(text.prefix(width))
        characters += Array(repeating: " ", count: width - characters.count)
        for (offset, character) in characters.enumerated() {
            self[row, column + offset] = .character(character)
        }
    }

    /// Writes `text` centred on `row`.
    public mutating func writeCentred(_ text: String, row: Int) {
        let characters = Array(text.prefix(columns))
        write(characters, row: row, column: (columns - characters.count) / 2, width: characters.count)
    }

    /// Writes `text` so that it ends at the right edge of `row`.
    public mutating func writeRight(_ text: String, row: Int) {
        let characters = Array(text.prefix(columns))
        write(characters, row: row, column: columns - characters.count, width: characters.count)
    }

    /// Puts `glyph` at `row`, `column`.
    public mutating func put(_ glyph: Glyph, row: Int, column: Int) {
        self[row, column] = .glyph(glyph)
    }

    /// The glyphs on screen, each once.
    public var glyphs: Set<Glyph> {
        var found = Set<Glyph>()
        for row in cells {
            for case let .glyph(glyph) in row { found.insert(glyph) }
        }
        return found
    }
}
