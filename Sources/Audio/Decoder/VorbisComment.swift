/// The title a Vorbis comment header carries (Vorbis and Ogg FLAC comment packets, OpusTags, FLAC's
/// VORBIS_COMMENT block): `ARTIST` and `TITLE` as "Artist - Title", the way ICY's StreamTitle reads.
///
/// The layout is a vendor string, a count and that many `KEY=value` strings, each behind a 32-bit
/// little-endian length. Every length and count comes from the station: none is trusted further than
/// the bytes actually there, nothing is allocated by what a length says, and a header cut short keeps
/// the fields read before the cut. Pure functions: any thread.
public struct VorbisComment: Equatable, Sendable {
    /// The first `TITLE` field, cleaned; nil when absent or empty.
    public var title: String?
    /// The first `ARTIST` field, cleaned; nil when absent or empty.
    public var artist: String?

    /// Most fields looked at: a header can claim four billion; a real one has a few dozen.
    public static let maximumFields = 1024

    public init(title: String? = nil, artist: String? = nil) {
        self.title = title
        self.artist = artist
    }

    /// "Artist - Title", or whichever of the two is there; nil when neither is.
    public var displayTitle: String? {
        switch (artist, title) {
        case let (artist?, title?): return "\(artist) - \(title)"
        case let (artist?, nil): return artist
        case let (nil, title?): return title
        case (nil, nil): return nil
        }
    }

    /// Parses a comment header's body: the bytes after its packet magic (`\x03vorbis`, `OpusTags`) or
    /// a VORBIS_COMMENT block's header. Never fails: garbage gives no fields.
    public static func parse(_ body: UnsafeRawBufferPointer) -> VorbisComment {
        var comment = VorbisComment()
        var cursor = 0
        guard let vendorLength = readLength(body, at: &cursor), skip(vendorLength, in: body, at: &cursor),
              let count = readLength(body, at: &cursor) else { return comment }
        for _ in 0..<min(count, maximumFields) {
            guard let length = readLength(body, at: &cursor), length <= body.count - cursor else { break }
            let field = UnsafeRawBufferPointer(rebasing: body[cursor..<(cursor + length)])
            cursor += length
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = field[..<equals]
            let value = field[(equals + 1)...]
            if comment.title == nil, matches(key, "TITLE") {
                comment.title = clean(value)
            } else if comment.artist == nil, matches(key, "ARTIST") {
                comment.artist = clean(value)
            }
            if comment.title != nil && comment.artist != nil { break }
        }
        return comment
    }

    /// `[UInt8]` convenience over ``parse(_:)-(UnsafeRawBufferPointer)``.
    public static func parse(_ body: [UInt8]) -> VorbisComment {
        body.withUnsafeBytes { parse($0) }
    }

    /// A 32-bit little-endian length at `cursor`, when four bytes are left.
    private static func readLength(_ bytes: UnsafeRawBufferPointer, at cursor: inout Int) -> Int? {
        guard bytes.count - cursor >= 4 else { return nil }
        var value = 0
        for index in 0..<4 { value |= Int(bytes[cursor + index]) << (8 * index) }
        cursor += 4
        return value
    }

    private static func skip(_ length: Int, in bytes: UnsafeRawBufferPointer, at cursor: inout Int) -> Bool {
        guard length <= bytes.count - cursor else { return false }
        cursor += length
        return true
    }

    /// Field names are ASCII and case-insensitive (`title`, `Title`, `TITLE`).
    private static func matches(_ key: Slice<UnsafeRawBufferPointer>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        return zip(key, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)).allSatisfy { a, b in
            a & 0xDF == b
        }
    }

    /// As ICY titles are decoded (UTF-8, else Windows-1252; bounded), without control characters; nil when empty.
    private static func clean(_ value: Slice<UnsafeRawBufferPointer>) -> String? {
        let prefix = value.prefix(4 * ICYMetadataParser.maximumValueLength)
        let text = ICYMetadataParser.decodeText(Array(prefix)).strippingControlCharacters()
        return text.isEmpty ? nil : text
    }
}

extension StringProtocol {
    /// Without C0, DEL and C1 control characters (a line feed in a title would break the display and
    /// the terminal) and bidi embeddings, overrides and isolates (they reorder the text around them);
    /// each control character becomes a space, and the result is trimmed.
    func strippingControlCharacters() -> String {
        guard !utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(self) }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: scalars.append(" ")
            case 0x202A...0x202E, 0x2066...0x2069: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingWhitespace()
    }
}
