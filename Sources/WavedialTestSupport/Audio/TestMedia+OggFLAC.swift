import Foundation

extension TestMedia {
    /// The codecs of ``oggTone(codec:frequency:sampleRate:channels:seconds:title:artist:serialOffset:)``.
    public enum OggCodec: String, Sendable {
        case opus
        case vorbis
        case flac

        var encoderArguments: [String] {
            switch self {
            case .opus: return ["-c:a", "libopus", "-b:a", "96k"]
            case .vorbis: return ["-c:a", "libvorbis", "-b:a", "128k"]
            case .flac: return ["-c:a", "flac"]
            }
        }
    }

    /// A sine tone in Ogg (Opus, Vorbis or FLAC), with `TITLE` and `ARTIST` comments when given.
    /// `serialOffset` sets the logical stream's serial number, so two files chain into one stream;
    /// `gainDecibels` raises the tone from ffmpeg's level (peaks at 2896 of 32767, about -21 dBFS).
    public static func oggTone(codec: OggCodec, frequency: Int = 440, sampleRate: Int = 48000, channels: Int = 2,
                               seconds: Int = 2, title: String? = nil, artist: String? = nil,
                               serialOffset: Int = 0, gainDecibels: Int = 0) throws -> URL {
        let gain = gainDecibels == 0 ? "" : "-\(gainDecibels)dB"
        let name = "tone-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(codec.rawValue)\(tagName(title, artist))-s\(serialOffset)\(gain).ogg"
        // More than two channels: the tone in every one (ffmpeg's upmix would put it in the centre only).
        let pan = channels > 2 ? ["pan=\(channels)c|" + (0..<channels).map { "c\($0)=c0" }.joined(separator: "|")] : []
        let filters = pan + (gainDecibels == 0 ? [] : ["volume=\(gainDecibels)dB"])
        let filterArguments = filters.isEmpty ? [] : ["-af", filters.joined(separator: ",")]
        return try cached(name) { partial in
            try run("ffmpeg", toneInput(frequency: frequency, sampleRate: sampleRate, seconds: seconds) +
                    ["-ac", "\(channels)"] + filterArguments + codec.encoderArguments + tagArguments(title, artist) +
                    ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-serial_offset", "\(serialOffset)", "-f", "ogg", partial.path])
        }
    }

    /// A sine tone as native FLAC (`fLaC`, STREAMINFO, VORBIS_COMMENT, frames) at 16 or 24 bits.
    public static func flacTone(frequency: Int = 440, sampleRate: Int = 44100, channels: Int = 2, seconds: Int = 2,
                                bitsPerSample: Int = 16, title: String? = nil, artist: String? = nil) throws -> URL {
        let name = "tone-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(bitsPerSample)bit\(tagName(title, artist)).flac"
        let sampleFormat = bitsPerSample > 16 ? ["-sample_fmt", "s32", "-bits_per_raw_sample", "\(bitsPerSample)"] : ["-sample_fmt", "s16"]
        return try cached(name) { partial in
            try run("ffmpeg", toneInput(frequency: frequency, sampleRate: sampleRate, seconds: seconds) +
                    ["-ac", "\(channels)", "-c:a", "flac"] + sampleFormat + tagArguments(title, artist) +
                    ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "flac", partial.path])
        }
    }

    /// What ffmpeg decodes `media` to, as interleaved S16 (its own decoders: for lossless FLAC, the reference).
    public static func ffmpegSamples(of media: URL) throws -> [Int16] {
        let decoded = try cached(media.lastPathComponent + ".s16le") { partial in
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", media.path,
                               "-f", "s16le", "-c:a", "pcm_s16le", partial.path])
        }
        return try Data(contentsOf: decoded).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    private static func toneInput(frequency: Int, sampleRate: Int, seconds: Int) -> [String] {
        ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
         "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)"]
    }

    private static func tagArguments(_ title: String?, _ artist: String?) -> [String] {
        (title.map { ["-metadata", "title=\($0)"] } ?? []) + (artist.map { ["-metadata", "artist=\($0)"] } ?? [])
    }

    /// The tags in a file name: letters and digits only.
    private static func tagName(_ title: String?, _ artist: String?) -> String {
        let tags = [artist, title].compactMap { $0 }
        guard !tags.isEmpty else { return "" }
        return "-" + tags.joined(separator: "-").filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

}
