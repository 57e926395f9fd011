/// Parses ICY metadata blocks (SHOUTcast/Icecast in-band metadata) into ``ICYMetadata``.
///
/// Stations put quotes and semicolons inside titles (`StreamTitle='Guns N' Roses - Don't Cry; Live';`),
/// so a value ends only at a `';` followed by the end of the block or by the next `Key='`.
/// Text is UTF-8 when valid, else Windows-1252 (a superset of Latin-1 for printable text);
/// HTML entities (`&amp;`, `&#1044;`, `&#x44;`) are decoded. Pure functions: any thread.
public enum ICYMetadataParser {
    /// The largest block the protocol can carry (length byte 255 × 16).
    public static let maximumBlockLength = 255 * 16

    /// The longest value kept; longer values are cut (an LCD shows far less).
    public static let maximumValueLength = 1024

    /// Parses one metadata block, NUL padding included; never fails (garbage gives no fields).
    public static func parse<Bytes: Collection>(_ block: Bytes) -> ICYMetadata where Bytes.Element == UInt8 {
        var bytes = Array(block.prefix(maximumBlockLength))
        while let last = bytes.last, last == 0 || last == 0x20 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        var fields: [(key: String, value: String)] = []
        var index = 0
        while index < bytes.count {
            guard let (key, valueStart) = keyStart(in: bytes, at: index) else { break }
            let valueEnd = endOfValue(in: bytes, from: valueStart)
            let raw = Array(bytes[valueStart..<valueEnd])
            fields.append((key, decodeText(raw)))
            index = min(bytes.count, valueEnd + 2)  // past `';`
        }
        return ICYMetadata(fields: fields)
    }

    /// Finds `Key='` at `index` (after optional spaces); returns the key and where its value starts.
    private static func keyStart(in bytes: [UInt8], at index: Int) -> (String, Int)? {
        var cursor = index
        while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x3B { cursor += 1 }
        let keyBegin = cursor
        while cursor < bytes.count, isKeyByte(bytes[cursor]) { cursor += 1 }
        guard cursor > keyBegin, cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "="),
              bytes[cursor + 1] == UInt8(ascii: "'") else { return nil }
        let key = String(decoding: bytes[keyBegin..<cursor], as: UTF8.self)
        return (key, cursor + 2)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    /// The first `';` that ends the block or is followed by another `Key='`; else the end (a lost quote).
    private static func endOfValue(in bytes: [UInt8], from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "'") {
                let next = cursor + 1
                if next == bytes.count { return cursor }
                if bytes[next] == UInt8(ascii: ";") && (next + 1 == bytes.count || keyStart(in: bytes, at: next + 1) != nil) {
                    return cursor
                }
            }
            cursor += 1
        }
        return bytes.count
    }

    /// UTF-8 when valid, else Windows-1252; then HTML entities; trimmed and bounded.
    static func decodeText(_ raw: [UInt8]) -> String {
        let text = String(validating: raw, as: UTF8.self) ?? String(String.UnicodeScalarView(raw.map(windows1252)))
        let decoded = HTMLEntities.decode(text).trimmingWhitespace()
        return decoded.count > maximumValueLength ? String(decoded.prefix(maximumValueLength)) : decoded
    }

    /// Windows-1252's 0x80–0x9F block; the rest of the byte range is Latin-1.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD,
        0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        if byte >= 0x80 && byte <= 0x9F { return Unicode.Scalar(windows1252High[Int(byte) - 0x80])! }
        return Unicode.Scalar(byte)
    }
}

extension StringProtocol {
    /// Without leading and trailing Unicode whitespace (no Foundation needed).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
