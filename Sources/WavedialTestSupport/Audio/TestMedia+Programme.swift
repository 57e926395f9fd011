import Foundation

extension TestMedia {
    /// Music-like test material at a chosen loudness: pink noise under a two-note chord (`frequency` and
    /// its fifth) that swells and falls every 2 s (about 20 dB, a few LU of loudness range), stereo CBR MP3,
    /// its integrated loudness `loudness` LUFS as ffmpeg's `ebur128` measures it (made in two passes:
    /// measured, then scaled). `steady` leaves out the swell: every 400 ms as loud as the next. Cached in `.build-media/`.
    public static func programme(loudness: Double, frequency: Int = 220, seconds: Int = 30, kbps: Int = 128,
                                 steady: Bool = false) throws -> URL {
        let level = String(format: "%.1f", loudness).replacingOccurrences(of: "-", with: "m")
        let name = "programme-\(level)LUFS-\(frequency)Hz-\(seconds)s-\(kbps)k\(steady ? "-steady" : "").mp3"
        return try cached(name) { partial in
            let sources = [
                "anoisesrc=color=pink:seed=\(frequency):amplitude=0.25:sample_rate=44100:duration=\(seconds)",
                "sine=frequency=\(frequency):sample_rate=44100:duration=\(seconds)",
                "sine=frequency=\(frequency * 3 / 2):sample_rate=44100:duration=\(seconds)",
            ]
            var inputs: [String] = []
            for source in sources { inputs += ["-f", "lavfi", "-i", source] }
            let swell = steady ? "" : ",volume='0.55+0.45*sin(PI*t)':eval=frame"
            let mix = "[0][1][2]amix=inputs=3:normalize=0\(swell),aformat=channel_layouts=stereo"
            let base = partial.deletingPathExtension().appendingPathExtension("wav")
            defer { try? FileManager.default.removeItem(at: base) }
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + inputs
                + ["-filter_complex", mix, "-c:a", "pcm_f32le", "-f", "wav", base.path])
            let measured = try LoudnessAnalysis.measure(media: base)
            let gain = String(format: "%.2f", loudness - measured.integrated)
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", base.path, "-af", "volume=\(gain)dB",
                               "-c:a", "libmp3lame", "-b:a", "\(kbps)k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
                               "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3", partial.path])
        }
    }
}
