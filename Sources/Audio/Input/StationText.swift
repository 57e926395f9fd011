/// Text a station sent (ICY titles and names, in-band tags, playlist URLs), made safe to show.
///
/// A station may send anything: an ESC sequence in a title would drive the terminal of whoever runs
/// `wavedial play-url`, a bidi override would reorder the text around it. Pure functions: any thread.
public enum StationText {
    /// `text` without control characters (C0, DEL and C1 become spaces: a line break inside a title
    /// still separates its words) and without bidi embeddings, overrides and isolates (dropped).
    /// Cheap for plain ASCII, which is returned as it is.
    public static func printable(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: scalars.append(" ")
            case 0x202A...0x202E, 0x2066...0x2069: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
