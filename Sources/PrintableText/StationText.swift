/// Text from outside, made safe to show: what a station sends (ICY titles and names, in-band tags,
/// playlist URLs), what a catalog mirror sends, what an imported favorites file holds.
///
/// A station may send anything: an ESC sequence in a title would drive the terminal of whoever runs
/// `wavedial play-url` or `wavedial status` (retitle it, clear it, remap its keys), a bidi override
/// would reorder the text around it. Every path from outside to a terminal, the LCD or the database
/// passes through ``printable(_:)``; the CLI passes what it prints through it again, for rows stored
/// by an older wavedial. Decode first (HTML entities, JSON escapes), then clean: `&#27;` is an ESC too.
/// Pure functions: any thread.
public enum StationText {
    /// Whether a terminal would act on `scalar` or it would reorder the text around it: the C0 controls,
    /// DEL and the C1 controls (U+0080–U+009F: U+009B is CSI to a terminal that reads 8-bit controls),
    /// and Unicode's Bidi_Control set (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return isBidiControl(scalar)
        }
    }

    /// `text` without control characters (C0, DEL and C1 become spaces: a line break inside a title
    /// still separates its words) and without bidi marks, embeddings, overrides and isolates (dropped).
    /// Cheap for plain ASCII, which is returned as it is.
    public static func printable(_ text: String) -> String {
        guard !isPrintable(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) { continue }
            scalars.append(isUnprintable(scalar) ? " " : scalar)
        }
        return String(scalars)
    }

    /// Whether `text` is already as ``printable(_:)`` would make it; reads without copying.
    public static func isPrintable(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return true }
        return !text.unicodeScalars.contains(where: isUnprintable)
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
