/// The headers a server repeats at the start of every connection of an Ogg or FLAC stream (Icecast
/// sends a new listener the stream's header pages before its burst), measured so the splice can look
/// the audio after them up in what was already heard.
public enum StreamHeaders {
    /// Header pages or blocks a connection's first bytes start with, in bytes: 0 when there are none
    /// (MPEG and ADTS carry none; an Ogg connection that starts with an audio page), nil when `bytes`
    /// end inside them, so more are needed to tell.
    public static func length(in bytes: [UInt8], encoding: AudioEncoding) -> Int? {
        switch encoding {
        case .mpeg, .adts: return 0
        case .ogg: return oggHeaderPagesLength(bytes)
        case .flac: return flacMetadataLength(bytes)
        }
    }

    /// Leading Ogg pages whose granule position is 0: the codec's header packets (Vorbis' three, OpusHead
    /// and OpusTags, Ogg FLAC's metadata); audio pages carry the position of their last sample.
    private static func oggHeaderPagesLength(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        while true {
            guard offset <= bytes.count else { return nil }
            guard bytes.count >= offset + 27 else {
                // Too short for a page header: more are needed, unless they cannot start a page.
                return bytes[offset...].elementsEqual(Array("OggS".utf8).prefix(bytes.count - offset)) ? nil : offset
            }
            guard bytes[offset..<(offset + 4)].elementsEqual(Array("OggS".utf8)) else { return offset }
            let granuleIsZero = bytes[(offset + 6)..<(offset + 14)].allSatisfy { $0 == 0 }
            let segments = Int(bytes[offset + 26])
            guard bytes.count >= offset + 27 + segments else { return nil }
            let body = bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            guard granuleIsZero else { return offset }
            offset += 27 + segments + body
        }
    }

    /// "fLaC" and the metadata blocks up to the one flagged last.
    private static func flacMetadataLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        guard bytes.starts(with: Array("fLaC".utf8)) else { return 0 }
        var offset = 4
        while true {
            guard bytes.count >= offset + 4 else { return nil }
            let last = bytes[offset] & 0x80 != 0
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 4 + length
            if last { return offset }
        }
    }
}
