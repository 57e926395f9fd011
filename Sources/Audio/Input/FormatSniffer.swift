/// Classifies a response from its first bytes; the `Content-Type` and the URL's extension are only hints,
/// used when the bytes do not decide (stations label AAC as `audio/mpeg`, send `application/octet-stream`
/// or no type at all, and Radio Browser's codec is often `UNKNOWN`).
public enum FormatSniffer {
    /// The smallest prefix ``sniff(contentType:url:prefix:)`` wants to see when the header alone does not decide.
    public static let sniffLength = 4096

    /// Classifies a response: text playlists by content, audio by container and frame signatures, then
    /// by content type and extension.
    public static func sniff(contentType: String?, url: String, prefix: [UInt8]) -> StreamFormat {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        let text = String(decoding: prefix.prefix(sniffLength), as: UTF8.self)
        let trimmed = text.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace })
        if trimmed.hasPrefix("#EXTM3U") || trimmed.hasPrefix("#EXTINF") || trimmed.hasPrefix("#EXT-X-") {
            return text.contains("#EXT-X-") ? .hls : .playlist(.m3u)
        }
        if trimmed.lowercased().hasPrefix("[playlist]") { return .playlist(.pls) }
        if let sniffed = sniffAudio(prefix) { return sniffed }
        switch type {
        case "audio/x-scpls", "application/pls+xml", "audio/scpls":
            return .playlist(.pls)
        case "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/vnd.apple.mpegurl":
            return .playlist(.m3u)
        case "application/dash+xml":
            return .unsupported("DASH")
        default:
            break
        }
        let path = url.split(separator: "?").first.map { $0.lowercased() } ?? ""
        if path.hasSuffix(".pls") { return .playlist(.pls) }
        if path.hasSuffix(".m3u") || path.hasSuffix(".m3u8") { return .playlist(.m3u) }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/x-mpeg", "audio/mpg", "audio/x-mp3", "audio/mpeg3":
            return .audio(.mpeg)
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp":
            return .audio(.adts)
        case "application/ogg", "audio/ogg", "audio/opus", "audio/vorbis", "audio/x-ogg":
            return .audio(.ogg)
        case "audio/flac", "audio/x-flac":
            return .audio(.flac)
        case "audio/mp4", "audio/x-m4a", "video/mp4":
            return .unsupported("MP4")
        case "audio/x-ms-wma", "video/x-ms-asf", "application/vnd.ms-asf", "video/x-ms-wmv":
            return .unsupported("WMA")
        default:
            if type.hasPrefix("text/html") || trimmed.lowercased().hasPrefix("<!doctype") || trimmed.hasPrefix("<") {
                return .unsupported("HTML page")
            }
            if looksLikeURLList(text) { return .playlist(.m3u) }
            return .unsupported(type.isEmpty ? "unknown content" : String(type.prefix(64)))
        }
    }

    /// Recognises container and frame signatures in the first bytes.
    private static func sniffAudio(_ prefix: [UInt8]) -> StreamFormat? {
        guard prefix.count >= 4 else { return nil }
        if prefix.starts(with: Array("OggS".utf8)) { return .audio(.ogg) }
        if prefix.starts(with: Array("fLaC".utf8)) { return .audio(.flac) }
        if prefix.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return .unsupported("WMA") }  // ASF header GUID
        if prefix.starts(with: Array("FLV".utf8)) { return .unsupported("FLV") }
        if prefix.count >= 8 && prefix[4...7].elementsEqual(Array("ftyp".utf8)) { return .unsupported("MP4") }
        if prefix.starts(with: Array("ID3".utf8)) {
            // MP3 files and HLS's packed audio segments (AAC) both start with a tag: look past it.
            let end = id3TagLength(prefix)
            guard end < prefix.count else { return .audio(.mpeg) }
            return sniffFrames(Array(prefix[end...])) ?? .audio(.mpeg)
        }
        return sniffFrames(prefix)
    }

    /// MPEG audio or ADTS frames. A connection may start mid-frame, so a frame header counts only when the
    /// next frame's header follows exactly where its length says (a lone 0xFFF pattern is common inside
    /// frame data).
    private static func sniffFrames(_ prefix: [UInt8]) -> StreamFormat? {
        guard prefix.count >= 2 else { return nil }
        for index in 0..<(prefix.count - 1) where prefix[index] == 0xFF && prefix[index + 1] & 0xE0 == 0xE0 {
            if let length = mpegFrameLength(prefix, at: index), index + length + 4 <= prefix.count,
               let next = mpegFrameLength(prefix, at: index + length), next > 0,
               prefix[index + 1] & 0xFE == prefix[index + length + 1] & 0xFE {
                return .audio(.mpeg)
            }
            if let length = adtsFrameLength(prefix, at: index), index + length + 7 <= prefix.count,
               adtsFrameLength(prefix, at: index + length) != nil {
                return .audio(.adts)
            }
        }
        return nil
    }

    /// The bytes an ID3v2 tag at the start takes (header, body, footer).
    private static func id3TagLength(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 10 else { return bytes.count }
        let size = bytes[6...9].reduce(0) { ($0 << 7) | Int($1 & 0x7F) }
        return 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
    }

    /// The length of the MPEG audio frame whose header starts at `index`, nil when it is not a valid header.
    static func mpegFrameLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xE0 == 0xE0 else { return nil }
        let version = (bytes[index + 1] >> 3) & 3  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
        let layer = (bytes[index + 1] >> 1) & 3  // 1: III, 2: II, 3: I
        let bitrateIndex = Int(bytes[index + 2] >> 4)
        let rateIndex = Int((bytes[index + 2] >> 2) & 3)
        let padding = Int((bytes[index + 2] >> 1) & 1)
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let bitrates: [Int]
        switch (mpeg1, layer) {
        case (true, 3): bitrates = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): bitrates = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): bitrates = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: bitrates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let rates = [44100, 48000, 32000][rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let bitrate = bitrates[bitrateIndex] * 1000
        switch layer {
        case 3: return (12 * bitrate / rates + padding) * 4
        case 1 where !mpeg1: return 72 * bitrate / rates + padding
        default: return 144 * bitrate / rates + padding
        }
    }

    /// The length of the ADTS (AAC) frame whose header starts at `index`, nil when it is not a valid header.
    static func adtsFrameLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 7 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xF6 == 0xF0 else { return nil }
        let length = (Int(bytes[index + 3] & 3) << 11) | (Int(bytes[index + 4]) << 3) | (Int(bytes[index + 5]) >> 5)
        return length >= 7 ? length : nil
    }

    private static func looksLikeURLList(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("#") }
    }
}
