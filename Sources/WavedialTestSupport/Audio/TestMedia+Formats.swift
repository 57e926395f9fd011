import Foundation

extension TestMedia {
    /// A sine tone encoded by ffmpeg in one of the radio's formats, cached in `.build-media/`.
    public enum Encoding: String, Sendable {
        case adts, opus, vorbis, flac, oggFLAC

        var ffmpegOutput: [String] {
            switch self {
            case .adts: return ["-c:a", "aac", "-b:a", "96k", "-f", "adts"]
            case .opus: return ["-c:a", "libopus", "-b:a", "64k", "-f", "ogg"]
            case .vorbis: return ["-c:a", "libvorbis", "-q:a", "3", "-f", "ogg"]
            case .flac: return ["-c:a", "flac", "-f", "flac"]
            case .oggFLAC: return ["-c:a", "flac", "-f", "ogg"]
            }
        }
    }

    /// - Parameters:
    ///   - title, artist: tags written into the stream (Vorbis comments, OpusTags, FLAC's VORBIS_COMMENT).
    ///   - serial: the Ogg logical stream's serial number, so two files concatenated make a chained stream.
    public static func tone(_ encoding: Encoding, frequency: Int = 440, sampleRate: Int = 44100, channels: Int = 2,
                            seconds: Int = 6, title: String? = nil, artist: String? = nil, serial: Int? = nil) throws -> URL {
        var tags: [String] = []
        if let title { tags += ["-metadata", "title=\(title)"] }
        if let artist { tags += ["-metadata", "artist=\(artist)"] }
        let ogg = [.opus, .vorbis, .oggFLAC].contains(encoding)
        let serialOptions = ogg ? ["-serial_offset", "\(serial ?? 1)"] : []
        let key = "\(encoding)-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(title ?? "")-\(artist ?? "")-\(serial ?? 1)"
        let name = "tone-" + String(key.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-") ? Character($0) : "_" })
        return try cached(name) { partial in
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                               "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                               "-ac", "\(channels)", "-fflags", "+bitexact", "-flags:a", "+bitexact"]
                + tags + encoding.ffmpegOutput + serialOptions + [partial.path])
        }
    }

    /// The files one after the other in one new cached file (a chained Ogg stream, a rate change mid-stream).
    public static func concatenated(_ parts: [URL], name: String) throws -> URL {
        let target = directory.appendingPathComponent(name)
        var data = Data()
        for part in parts { data.append(try Data(contentsOf: part)) }
        try data.write(to: target, options: .atomic)
        return target
    }
}
