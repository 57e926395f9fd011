/// The custom 5x8 symbols the layouts use; each becomes a CGRAM character on the LCD while it is on screen.
///
/// A value type; any thread.
public enum Glyph: Hashable, Sendable {
    /// A favorite (filled heart).
    case heart
    /// Playing.
    case play
    /// Paused.
    case pause
    /// Connecting or buffering (an hourglass).
    case hourglass
    /// Failed (a cross).
    case cross
    /// Signal strength bars.
    case signal
    /// A musical note, before "artist – title".
    case note
    /// The tuning needle on the position bar, at pixel column 0–4 of its cell, across the bar's dashes.
    case needle(column: Int)
    /// A level bar cell with 1–5 pixel columns filled from the left (5 is a full block).
    case level(columns: Int)
    /// An alarm is set (a bell), before the next alarm's time on the idle clock.
    case bell
    /// The sleep timer runs (a small "z").
    case sleep

    /// Every glyph, for test patterns.
    public static let all: [Glyph] = [.heart, .play, .pause, .hourglass, .cross, .signal, .note, .bell, .sleep]
        + (0...4).map { .needle(column: $0) } + (1...5).map { .level(columns: $0) }

    /// Eight rows of five pixels, top first; bit 4 is the leftmost column.
    public var rows: [UInt8] {
        switch self {
        case .heart: return [0x00, 0x0A, 0x1F, 0x1F, 0x1F, 0x0E, 0x04, 0x00]
        case .play: return [0x08, 0x0C, 0x0E, 0x0F, 0x0E, 0x0C, 0x08, 0x00]
        case .pause: return [0x00, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x00]
        case .hourglass: return [0x1F, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x1F, 0x00]
        case .cross: return [0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x00, 0x00]
        case .signal: return [0x01, 0x01, 0x05, 0x05, 0x15, 0x15, 0x15, 0x00]
        case .note: return [0x02, 0x03, 0x02, 0x02, 0x0E, 0x1E, 0x0C, 0x00]
        case let .needle(column):
            let line = UInt8(0x10) >> UInt8(min(max(column, 0), 4))
            return [line, line, line, 0x1F, line, line, line, 0x00]
        case let .level(columns):
            let filled = min(max(columns, 1), 5)
            let row = UInt8(0x1F) & ~(UInt8(0x1F) >> UInt8(filled))
            return Array(repeating: row, count: 7) + [0x00]
        case .bell: return [0x04, 0x0E, 0x0E, 0x0E, 0x1F, 0x00, 0x04, 0x00]
        case .sleep: return [0x00, 0x1E, 0x02, 0x04, 0x08, 0x1E, 0x00, 0x00]
        }
    }

    /// The ASCII character shown when no CGRAM slot is free.
    public var fallback: Character {
        switch self {
        case .heart: return "*"
        case .play: return ">"
        case .pause: return "="
        case .hourglass: return ":"
        case .cross: return "x"
        case .signal: return "!"
        case .note: return "-"
        case .needle: return "|"
        case .level: return "#"
        case .bell: return "@"
        case .sleep: return "z"
        }
    }

    /// The Unicode character the terminal renderer shows for it.
    public var symbol: Character {
        switch self {
        case .heart: return "♥"
        case .play: return "▶"
        case .pause: return "‖"
        case .hourglass: return "⧗"
        case .cross: return "✗"
        case .signal: return "▟"
        case .note: return "♪"
        case .needle: return "┼"
        case let .level(columns): return ["▏", "▎", "▌", "▊", "█"][min(max(columns, 1), 5) - 1]
        case .bell: return "⍾"
        case .sleep: return "ᶻ"
        }
    }
}
