/// Draws a `Screen` as text for a terminal: the simulator, `wavedial lcd show`, test failure messages.
///
/// Characters appear as themselves, glyphs as their Unicode symbol. A value type; any thread.
public struct TerminalRenderer: Sendable {
    /// Draw a box around the screen.
    public var framed: Bool

    public init(framed: Bool = true) {
        self.framed = framed
    }

    /// The screen's rows as lines (with a box when `framed`).
    public func lines(_ screen: Screen) -> [String] {
        let rows = screen.cells.map { row in
            String(row.map { cell -> Character in
                switch cell {
                case let .character(character): return character
                case let .glyph(glyph): return glyph.symbol
                }
            })
        }
        return framed ? Self.framed(rows, columns: screen.columns) : rows
    }

    /// Rows drawn by another process (the daemon's `lcd` reply) in the same box.
    public static func frame(_ rows: [String]) -> String {
        framed(rows, columns: rows.map(\.count).max() ?? 0).joined(separator: "\n")
    }

    private static func framed(_ rows: [String], columns: Int) -> [String] {
        let edge = String(repeating: "─", count: columns)
        return ["┌" + edge + "┐"] + rows.map { "│" + $0 + "│" } + ["└" + edge + "┘"]
    }

    /// The screen as one string, rows separated by newlines.
    public func render(_ screen: Screen) -> String {
        lines(screen).joined(separator: "\n")
    }
}
