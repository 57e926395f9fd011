import Foundation

/// Test media for HTTP Live Streaming: containers made by ffmpeg (cached in `.build-media/`), the
/// elementary streams ffmpeg takes out of them, and decoded PCM to measure.
extension TestMedia {
    /// The containers an HLS segment may be.
    public enum SegmentContainer: String {
        /// MPEG-TS with AAC (`-f mpegts`).
        case transportStreamAAC = "ts-aac"
        /// MPEG-TS with MP3.
        case transportStreamMP3 = "ts-mp3"
        /// Fragmented MP4 with AAC (`empty_moov`, one fragment a second, `default_base_moof`), init and media in one file.
        case fragmentedMP4 = "fmp4-aac"
        /// Plain ADTS AAC.
        case adts = "aac"
    }

    /// A sine tone in `container`, AAC at 44.1 kHz stereo 64 kbit/s (MP3 at 128), bit-exact so the cache never goes stale.
    public static func hlsMedia(_ container: SegmentContainer, frequency: Int = 440, seconds: Int = 10) throws -> URL {
        let name = "hls-\(container.rawValue)-\(frequency)Hz-\(seconds)s.\(container == .adts ? "aac" : "bin")"
        return try cached(name) { partial in
            var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                             "-i", "sine=frequency=\(frequency):sample_rate=44100:duration=\(seconds)", "-ac", "2",
                             "-fflags", "+bitexact", "-flags:a", "+bitexact"]
            switch container {
            case .transportStreamAAC:
                arguments += ["-c:a", "aac", "-b:a", "64k", "-f", "mpegts"]
            case .transportStreamMP3:
                arguments += ["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mpegts"]
            case .fragmentedMP4:
                arguments += ["-c:a", "aac", "-b:a", "64k", "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                              "-frag_duration", "1000000", "-f", "mp4"]
            case .adts:
                arguments += ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]
            }
            try run("ffmpeg", arguments + [partial.path])
        }
    }

    /// One second of tone behind an ID3v2 tag naming `artist` and `title`, as ffmpeg writes it: ADTS with
    /// `-write_id3v2` (version 4; HLS packed audio), or MP3 with `-id3v2_version` `id3Version`.
    public static func taggedAudio(mp3: Bool = false, id3Version: Int = 4, artist: String, title: String) throws -> URL {
        let name = "hls-tagged-\(mp3 ? "mp3" : "aac")-v\(id3Version)-\(artist.unicodeScalars.map { String($0.value, radix: 16) }.joined())-"
            + "\(title.unicodeScalars.map { String($0.value, radix: 16) }.joined()).bin"
        return try cached(name) { partial in
            let codec = mp3 ? ["-c:a", "libmp3lame", "-id3v2_version", "\(id3Version)", "-f", "mp3"]
                : ["-c:a", "aac", "-write_id3v2", "1", "-f", "adts"]
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=duration=1",
                               "-fflags", "+bitexact", "-flags:a", "+bitexact", "-metadata", "title=\(title)",
                               "-metadata", "artist=\(artist)"] + codec + [partial.path])
        }
    }

    /// The audio of `media` as ffmpeg's own demuxer takes it out: `ffmpeg -i media -c copy -f adts` (or `-f mp3`);
    /// cached beside media from the cache, written beside any other.
    public static func elementaryStream(of media: URL, format: String = "adts") throws -> [UInt8] {
        let extract = { (target: URL) in
            // Nothing but the frames: no Xing frame or ID3 tag ahead of MP3.
            let bare = format == "mp3" ? ["-write_xing", "0", "-id3v2_version", "0"] : []
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", media.path, "-map", "0:a:0",
                               "-c", "copy", "-fflags", "+bitexact"] + bare + ["-f", format, target.path])
        }
        let url: URL
        if media.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL {
            url = try cached("\(media.lastPathComponent).es.\(format)", make: extract)
        } else {
            url = media.appendingPathExtension("es.\(format)")
            try extract(url)
        }
        return Array(try Data(contentsOf: url))
    }

    /// Interleaved 16-bit stereo PCM at 44.1 kHz decoded by ffmpeg from an elementary stream (`format`: adts, mp3)
    /// written to `folder`; ffmpeg resyncs over a discontinuity as a radio's decoder does.
    public static func decodedPCM(_ bytes: [UInt8], format: String, in folder: URL) throws -> [Int16] {
        let input = folder.appendingPathComponent("decode-\(UUID().uuidString).\(format)")
        let output = folder.appendingPathComponent("decode-\(UUID().uuidString).raw")
        try Data(bytes).write(to: input)
        // ffmpeg names its ADTS reader "aac".
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", format == "adts" ? "aac" : format, "-i", input.path,
                           "-f", "s16le", "-ac", "2", "-ar", "44100", output.path])
        let data = try Data(contentsOf: output)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

}
