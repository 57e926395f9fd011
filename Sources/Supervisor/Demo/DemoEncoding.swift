/// The formats the demo band's stations stream in: the radio plays them all, so the demo shows them off.
public enum DemoEncoding: String, Sendable, Equatable, CaseIterable {
    /// MPEG-1 Layer III, 128 kbit/s constant bit rate.
    case mp3
    /// AAC-LC in ADTS frames, 96 kbit/s.
    case aac
    /// Opus in Ogg, 64 kbit/s.
    case opus

    /// The response's `Content-Type`.
    var contentType: String {
        switch self {
        case .mp3: return "audio/mpeg"
        case .aac: return "audio/aac"
        case .opus: return "audio/ogg"
        }
    }

    /// Radio Browser's `codec` for it.
    var codec: String {
        switch self {
        case .mp3: return "MP3"
        case .aac: return "AAC"
        case .opus: return "OPUS"
        }
    }

    /// The nominal bit rate in kbit/s (Radio Browser's `bitrate`).
    var kbps: Int {
        switch self {
        case .mp3: return 128
        case .aac: return 96
        case .opus: return 64
        }
    }

    /// The media file's extension in the cache.
    var fileExtension: String { rawValue }

    /// ffmpeg's output options for it. Bit-exact, without ID3 or Xing frames: a loop is frames only,
    /// so joining its end to its start is clean.
    var ffmpegOutput: [String] {
        switch self {
        case .mp3:
            return ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"]
        case .aac:
            return ["-c:a", "aac", "-b:a", "96k", "-f", "adts"]
        case .opus:
            return ["-c:a", "libopus", "-b:a", "64k", "-f", "ogg"]
        }
    }
}
