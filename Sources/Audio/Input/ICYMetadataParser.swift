import PrintableText

/// Parses ICY metadata blocks (SHOUTcast/Icecast in-band metadata) into ``ICYMetadata``.
///
/// A block is `Key='value';` fields. Stations put quotes and semicolons inside titles
/// (`StreamTitle='Guns N' Roses - Don't Cry; Live';`), so a quoted value ends only at a `';` followed
/// by the end of the block or by the next `Key=`. Some servers send fields with unquoted values
/// (`adw_ad=true;StreamTitle='…';`): such a value runs to the next `;`, as MPD reads it (mpv takes
/// `StreamTitle='` wherever it is). Anything else up to the next `;` is skipped, so a title after
/// garbage is still found. Quotes are kept as sent: no player undoubles `''`.
/// Text is UTF-8 when valid, else Windows-1252 (a superset of Latin-1 for printable text);
/// HTML entities (`&amp;`, `&#1044;`, `&#x44;`) are decoded; control characters are removed.
/// Pure functions: any thread.
public enum ICYMetadataParser {
    /// The largest block the protocol can carry (length byte 255 × 16).
    public static let maximumBlockLength = 255 * 16

    /// The longest value kept; longer values are cut (an LCD shows far less).
    public static let maximumValueLength = 1024

    private static let quote = UInt8(ascii: "'")
    private static let semicolon = UInt8(ascii: ";")

    /// Parses one metadata block, NUL padding included; never fails (garbage gives no fields).
    public static func parse<Bytes: Collection>(_ block: Bytes) -> ICYMetadata where Bytes.Element == UInt8 {
        var bytes = Array(block.prefix(maximumBlockLength))
        while let last = bytes.last, last == 0 || last == 0x20 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        var fields: [(key: String, value: String)] = []
        var index = 0
        while index < bytes.count {
            guard let (key, valueStart) = fieldStart(in: bytes, at: index) else {
                // Not a field: skip to the next `;` and try again there.
                guard let next = bytes[index...].firstIndex(of: semicolon) else { break }
                index = next + 1
                continue
            }
            let valueEnd: Int
            if valueStart < bytes.count, bytes[valueStart] == quote {
                valueEnd = endOfQuotedValue(in: bytes, from: valueStart + 1)
                fields.append((key, decodeText(Array(bytes[(valueStart + 1)..<valueEnd]))))
                index = min(bytes.count, valueEnd + 1)  // past the closing quote
            } else {
                valueEnd = bytes[valueStart...].firstIndex(of: semicolon) ?? bytes.count
                fields.append((key, decodeText(Array(bytes[valueStart..<valueEnd]))))
                index = valueEnd
            }
        }
        return ICYMetadata(fields: fields)
    }

    /// Finds `Key=` at `index` (after optional spaces and semicolons); returns the key and where its
    /// value starts (at its opening quote when it has one).
    private static func fieldStart(in bytes: [UInt8], at index: Int) -> (String, Int)? {
        var cursor = index
        while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == semicolon { cursor += 1 }
        let keyBegin = cursor
        while cursor < bytes.count, isKeyByte(bytes[cursor]) { cursor += 1 }
        guard cursor > keyBegin, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { return nil }
        let key = String(decoding: bytes[keyBegin..<cursor], as: UTF8.self)
        return (key, cursor + 1)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    /// The closing quote: the first `'` that ends the block, or whose `;` is followed by the end (spaces
    /// and semicolons aside) or by another `Key=`; else the end (a lost quote).
    private static func endOfQuotedValue(in bytes: [UInt8], from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count {
            if bytes[cursor] == quote {
                let next = cursor + 1
                if next == bytes.count { return cursor }
                if bytes[next] == semicolon && (restIsBlank(bytes, from: next) || fieldStart(in: bytes, at: next) != nil) {
                    return cursor
                }
            }
            cursor += 1
        }
        return bytes.count
    }

    private static func restIsBlank(_ bytes: [UInt8], from index: Int) -> Bool {
        bytes[index...].allSatisfy { $0 == 0x20 || $0 == semicolon }
    }

    /// UTF-8 when valid, else Windows-1252; then HTML entities; control characters and bidi overrides
    /// removed (``StationText/printable(_:)``, after the entities: `&#27;` is an ESC too); trimmed and bounded.
    static func decodeText(_ raw: [UInt8]) -> String {
        let text = String(validating: raw, as: UTF8.self) ?? String(String.UnicodeScalarView(raw.map(windows1252)))
        let decoded = StationText.printable(HTMLEntities.decode(text)).trimmingWhitespace()
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
