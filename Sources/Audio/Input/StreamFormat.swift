/// What a URL turned out to serve, judged from the `Content-Type`, the URL's extension and the first bytes.
public enum StreamFormat: Equatable, Sendable {
    /// MPEG audio (MP3, and MP2/MP1 which libmpg123 also decodes).
    case mpeg
    /// A playlist to resolve into stream URLs.
    case playlist(PlaylistKind)
    /// HTTP Live Streaming (an `.m3u8` with `#EXT-X-` tags): not supported.
    case hls
    /// Something we cannot decode (AAC, Ogg, HTML, ...), named for the failure message.
    case unsupported(String)

    /// The smallest prefix ``detect(contentType:url:prefix:)`` wants to see when the header alone does not decide.
    public static let sniffLength = 4096

    /// Classifies a response. Playlists win by content, then content type, then extension; audio is sniffed
    /// from its first bytes when the type is generic (`application/octet-stream`, `text/plain`, missing).
    public static func detect(contentType: String?, url: String, prefix: [UInt8]) -> StreamFormat {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        let text = String(decoding: prefix.prefix(sniffLength), as: UTF8.self)
        let trimmed = text.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace })
        if trimmed.hasPrefix("#EXTM3U") || trimmed.hasPrefix("#EXTINF") || trimmed.hasPrefix("#EXT-X-") {
            return text.contains("#EXT-X-") ? .hls : .playlist(.m3u)
        }
        if trimmed.lowercased().hasPrefix("[playlist]") { return .playlist(.pls) }
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
        if let sniffed = sniffAudio(prefix) { return sniffed }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/x-mpeg", "audio/mpg", "audio/x-mp3", "audio/mpeg3":
            return .mpeg
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/mp4", "audio/x-m4a":
            return .unsupported("AAC")
        case "application/ogg", "audio/ogg", "audio/opus", "audio/vorbis", "audio/x-ogg":
            return .unsupported("Ogg")
        case "audio/flac", "audio/x-flac":
            return .unsupported("FLAC")
        default:
            if type.hasPrefix("text/html") || trimmed.lowercased().hasPrefix("<!doctype") || trimmed.hasPrefix("<") {
                return .unsupported("HTML page")
            }
            if looksLikeURLList(text) { return .playlist(.m3u) }
            return .unsupported(type.isEmpty ? "unknown content" : type)
        }
    }

    /// Recognises container and frame signatures in the first bytes.
    private static func sniffAudio(_ prefix: [UInt8]) -> StreamFormat? {
        guard prefix.count >= 4 else { return nil }
        if prefix.starts(with: [0x4F, 0x67, 0x67, 0x53]) { return .unsupported("Ogg") }  // "OggS"
        if prefix.starts(with: [0x66, 0x4C, 0x61, 0x43]) { return .unsupported("FLAC") }  // "fLaC"
        if prefix.starts(with: [0x49, 0x44, 0x33]) { return .mpeg }  // "ID3" tag before MPEG frames
        if prefix.count >= 8 && prefix[4...7].elementsEqual([0x66, 0x74, 0x79, 0x70]) { return .unsupported("AAC") }  // MP4 "ftyp"
        // A connection may start mid-frame, so a frame header counts only when the next frame's header
        // follows exactly where its length says (a lone 0xFFE pattern is common inside MPEG frame data).
        for index in 0..<(prefix.count - 1) where prefix[index] == 0xFF && prefix[index + 1] & 0xE0 == 0xE0 {
            if let length = mpegFrameLength(prefix, at: index), index + length + 4 <= prefix.count,
               let next = mpegFrameLength(prefix, at: index + length), next > 0,
               prefix[index + 1] & 0xFE == prefix[index + length + 1] & 0xFE {
                return .mpeg
            }
            if let length = adtsFrameLength(prefix, at: index), index + length + 7 <= prefix.count,
               adtsFrameLength(prefix, at: index + length) != nil {
                return .unsupported("AAC")
            }
        }
        return nil
    }

    /// The length of the MPEG audio frame whose header starts at `index`, nil when it is not a valid header.
    private static func mpegFrameLength(_ bytes: [UInt8], at index: Int) -> Int? {
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
    private static func adtsFrameLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 7 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xF6 == 0xF0 else { return nil }
        let length = (Int(bytes[index + 3] & 3) << 11) | (Int(bytes[index + 4]) << 3) | (Int(bytes[index + 5]) >> 5)
        return length >= 7 ? length : nil
    }

    private static func looksLikeURLList(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("#") }
    }
}

/// The playlist syntaxes stations use to point at their streams.
public enum PlaylistKind: Equatable, Sendable {
    /// `[playlist]` with `FileN=` entries (SHOUTcast's `.pls`).
    case pls
    /// One URL a line, `#` comments (`.m3u`, and `.m3u8` that is not HLS).
    case m3u
}
