import Hardware

/// The wiring check `wavedial lcd test` plays: every cell lit, every cell addressed, every ROM character,
/// every glyph, and the backlight blinking.
///
/// A value type; any thread may build it. Playing it is the caller's (blocking) business.
public struct LCDTestPattern: Sendable {
    /// One step: show a frame or switch the backlight, then hold for `seconds`.
    public struct Step: Sendable {
        public enum Action: Sendable {
            case show(LCDFrame)
            case backlight(Bool)
        }

        /// What the person at the display should see.
        public let caption: String
        public let action: Action
        public let seconds: Double
    }

    public let steps: [Step]

    /// The pattern for a display of `geometry` with character ROM `rom`, each picture held `seconds`.
    public init(geometry: LCDGeometry, rom: CharacterROM, seconds: Double = 1.5) {
        var steps: [Step] = []
        // All cells lit: a full block (A00 has one in ROM; otherwise the full-level glyph).
        var lit = LCDFrame(geometry: geometry)
        let block: LCDFrame.Cell = rom.code(for: "█").map { .code($0) }
            ?? .glyph(LCDGlyph(rows: Glyph.level(columns: 5).rows, fallback: 0x23))
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns { lit[row, column] = block }
        }
        steps.append(Step(caption: "every cell lit: look for dead pixels or a missing row", action: .show(lit),
                          seconds: seconds))
        // Every cell addressed: row letter and column digit, so a wrong row offset shows at once.
        var addressed = LCDFrame(geometry: geometry)
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns {
                addressed[row, column] = .code(column == 0 ? UInt8(ascii: "A") + UInt8(row)
                                                           : UInt8(ascii: "0") + UInt8(column % 10))
            }
        }
        steps.append(Step(caption: "rows A, B, …, columns 1–9, 0: check the order", action: .show(addressed),
                          seconds: seconds * 2))
        // Every ROM character from 0x10 up, a screenful at a time.
        let cellsPerScreen = geometry.rows * geometry.columns
        for first in stride(from: 0x10, through: 0xFF, by: cellsPerScreen) {
            var page = LCDFrame(geometry: geometry)
            for index in 0..<cellsPerScreen where first + index <= 0xFF {
                page[index / geometry.columns, index % geometry.columns] = .code(UInt8(first + index))
            }
            let last = min(0xFF, first + cellsPerScreen - 1)
            steps.append(Step(caption: "ROM characters 0x\(String(first, radix: 16))–0x\(String(last, radix: 16))",
                              action: .show(page), seconds: seconds))
        }
        // Every glyph, eight at a time (CGRAM has eight slots).
        for first in stride(from: 0, to: Glyph.all.count, by: 8) {
            var page = LCDFrame(geometry: geometry)
            for (offset, glyph) in Glyph.all[first..<min(first + 8, Glyph.all.count)].enumerated() {
                page[0, offset * 2] = .glyph(LCDGlyph(rows: glyph.rows, fallback: 0x3F))
            }
            steps.append(Step(caption: "custom glyphs \(first + 1)–\(min(first + 8, Glyph.all.count))",
                              action: .show(page), seconds: seconds * 2))
        }
        for _ in 0..<3 {
            steps.append(Step(caption: "backlight off", action: .backlight(false), seconds: 0.5))
            steps.append(Step(caption: "backlight on", action: .backlight(true), seconds: 0.5))
        }
        self.steps = steps
    }
}
