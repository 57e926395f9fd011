/// The title an ID3v2 tag carries (versions 2.2, 2.3 and 2.4), as HLS stations send it: timed metadata in
/// an MPEG-TS stream (stream type 0x15), or tags ahead of packed audio.
///
/// A `TXXX` or `PRIV` frame named `StreamTitle` (or whose text is an ICY `StreamTitle='…';`) wins; else
/// `TPE1 - TIT2`, else `TIT2`. Sizes are syncsafe and bounded by the bytes at hand; unsynchronisation,
/// extended headers and data-length indicators are undone; compressed or encrypted frames are skipped.
/// Text is cleaned as ICY titles are (``ICYMetadataParser``), control characters removed. Pure: any thread.
public enum ID3Tag {
    /// The header's length; a tag's whole length is this, its syncsafe size and a footer when flagged.
    public static let headerLength = 10

    /// The whole tag's length (header, body and footer) when `bytes` starts with an ID3v2 header, else nil.
    /// The tag may be longer than `bytes`.
    public static func length(ofTagAt bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= headerLength, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,
              (2...4).contains(bytes[3]), bytes[4] != 0xFF,
              let size = syncsafe(bytes[6], bytes[7], bytes[8], bytes[9]) else { return nil }
        let footer = bytes[3] == 4 && bytes[5] & 0x10 != 0 ? headerLength : 0
        return headerLength + size + footer
    }

    /// The title of the tag at the start of `bytes`; nil when there is no tag or it names no title.
    public static func title(in bytes: UnsafeRawBufferPointer) -> String? {
        guard let length = length(ofTagAt: bytes) else { return nil }
        let version = bytes[3]
        let flags = bytes[5]
        var body = Array(bytes[headerLength..<min(bytes.count, length)])
        if flags & 0x80 != 0 && version < 4 { body = resynchronised(body) }
        var index = 0
        if flags & 0x40 != 0 && version >= 3 {
            guard body.count >= 4 else { return nil }
            // 2.3 counts the extended header without its size field, 2.4 with it (and syncsafe).
            let size = version == 3 ? Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3]) + 4
                : syncsafe(body[0], body[1], body[2], body[3]) ?? body.count
            index = size
        }
        var fields = TitleFields()
        let headerSize = version == 2 ? 6 : 10
        while index + headerSize <= body.count {
            let idLength = version == 2 ? 3 : 4
            let id = body[index..<(index + idLength)]
            guard id.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else { break }  // padding
            let size: Int
            var frameFlags: UInt8 = 0
            switch version {
            case 2:
                size = Int(body[index + 3]) << 16 | Int(body[index + 4]) << 8 | Int(body[index + 5])
            case 3:
                size = Int(body[index + 4]) << 24 | Int(body[index + 5]) << 16 | Int(body[index + 6]) << 8 | Int(body[index + 7])
                frameFlags = body[index + 9]
            default:
                guard let syncsafeSize = syncsafe(body[index + 4], body[index + 5], body[index + 6], body[index + 7]) else { return nil }
                size = syncsafeSize
                frameFlags = body[index + 9]
            }
            let start = index + headerSize
            guard size <= body.count - start else { break }
            index = start + size
            if let content = frameContent(body[start..<(start + size)], flags: frameFlags, version: version) {
                fields.read(String(decoding: id, as: UTF8.self), content)
            }
        }
        return fields.title
    }

    /// A frame's payload with its flags undone; nil for compressed or encrypted frames.
    private static func frameContent(_ bytes: ArraySlice<UInt8>, flags: UInt8, version: UInt8) -> [UInt8]? {
        switch version {
        case 3:
            guard flags & 0xC0 == 0 else { return nil }
            return Array(bytes.dropFirst(flags & 0x20 != 0 ? 1 : 0))  // the grouping byte
        case 4:
            guard flags & 0x0C == 0 else { return nil }
            var content = Array(bytes.dropFirst((flags & 0x40 != 0 ? 1 : 0) + (flags & 0x01 != 0 ? 4 : 0)))
            if flags & 0x02 != 0 { content = resynchronised(content) }
            return content
        default:
            return Array(bytes)
        }
    }

    /// The frames that can make a title, collected over one tag.
    private struct TitleFields {
        var streamTitle: String?
        var title: String? {
            if let streamTitle { return streamTitle }
            guard let song else { return nil }
            guard let artist else { return song }
            return "\(artist) - \(song)"
        }
        private var song: String?
        private var artist: String?

        mutating func read(_ id: String, _ content: [UInt8]) {
            switch id {
            case "TIT2", "TT2":
                song = song ?? ID3Tag.text(content).flatMap(ID3Tag.nonEmpty)
            case "TPE1", "TP1":
                artist = artist ?? ID3Tag.text(content).flatMap(ID3Tag.nonEmpty)
            case "TXXX", "TXX":
                guard let encoding = content.first, let (description, valueStart) = ID3Tag.terminated(content, from: 1, encoding: encoding)
                else { return }
                let value = ID3Tag.decode(Array(content[valueStart...]), encoding: encoding)
                consider(named: description, value: value)
            case "PRIV":
                guard let (owner, dataStart) = ID3Tag.terminated(content, from: 0, encoding: 0) else { return }
                consider(named: owner, value: ID3Tag.decode(Array(content[dataStart...]), encoding: 3))
            default:
                break
            }
        }

        /// A `StreamTitle` frame, or a frame whose text is an ICY metadata block.
        private mutating func consider(named name: String, value: String) {
            guard streamTitle == nil else { return }
            if value.hasPrefix("StreamTitle=") {
                streamTitle = ICYMetadataParser.parse(Array(value.utf8)).title.map(ID3Tag.clean).flatMap(ID3Tag.nonEmpty)
            } else if name.lowercased() == "streamtitle" {
                streamTitle = ID3Tag.nonEmpty(value)
            }
        }
    }

    /// A text frame's first value.
    private static func text(_ content: [UInt8]) -> String? {
        guard let encoding = content.first else { return nil }
        return decode(Array(content.dropFirst()), encoding: encoding)
    }

    /// A NUL-terminated string at `start` in `encoding` (two NUL bytes, aligned, in UTF-16) and where what follows starts.
    private static func terminated(_ content: [UInt8], from start: Int, encoding: UInt8) -> (String, Int)? {
        guard start <= content.count else { return nil }
        let wide = encoding == 1 || encoding == 2
        var index = start
        while index < content.count {
            if wide {
                guard index + 1 < content.count else { break }
                if content[index] == 0 && content[index + 1] == 0 {
                    return (decode(Array(content[start..<index]), encoding: encoding), index + 2)
                }
                index += 2
            } else {
                if content[index] == 0 { return (decode(Array(content[start..<index]), encoding: encoding), index + 1) }
                index += 1
            }
        }
        return nil
    }

    /// Text in an ID3 encoding (0 Latin-1, 1 UTF-16 with a byte-order mark, 2 UTF-16BE, 3 UTF-8), up to its first NUL.
    private static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        let text: String
        switch encoding {
        case 1, 2:
            var units: [UInt16] = []
            var bigEndian = true
            var index = 0
            if encoding == 1 && bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE { bigEndian = false; index = 2 }
            if encoding == 1 && bytes.count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { index = 2 }
            while index + 1 < bytes.count {
                let unit = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                    : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                if unit == 0 { break }
                units.append(unit)
                index += 2
            }
            text = String(decoding: units, as: UTF16.self)
        case 3:
            text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        default:
            text = String(String.UnicodeScalarView(bytes.prefix { $0 != 0 }.map { Unicode.Scalar($0) }))
        }
        return clean(text)
    }

    /// As ICY titles are cleaned: entities decoded, then control and bidi characters (also those an entity
    /// named) removed, trimmed, bounded.
    private static func clean(_ text: String) -> String {
        let bounded = String(text.unicodeScalars.prefix(4 * ICYMetadataParser.maximumValueLength))
        return ICYMetadataParser.decodeText(Array(bounded.utf8))
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// A 28-bit syncsafe integer; nil when a byte has its top bit set.
    private static func syncsafe(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int? {
        guard (a | b | c | d) & 0x80 == 0 else { return nil }
        return Int(a) << 21 | Int(b) << 14 | Int(c) << 7 | Int(d)
    }

    /// Unsynchronisation undone: every `FF 00` back to `FF`.
    private static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { result.append(byte) }
            previous = byte
        }
        return result
    }
}
