import Foundation

/// EBU R128 loudness as ffmpeg's `ebur128` filter measures it: an outside judge of what the radio plays,
/// so a test of the player's loudness never trusts the player's own meter.
public struct LoudnessAnalysis: Equatable, Sendable, CustomStringConvertible {
    /// Integrated loudness in LUFS (-70 or lower: nothing above the absolute gate).
    public var integrated: Double
    /// True peak in dBTP (ffmpeg oversamples to 192 kHz).
    public var truePeak: Double

    public var description: String { String(format: "%.1f LUFS, %.1f dBTP", integrated, truePeak) }

    /// Measures raw interleaved samples: a capture (S16_LE, as ``AlsaCapture`` writes it) or any ffmpeg raw
    /// format (`f32le`); `skipSeconds` leaves out its start, `seconds` measures only so much.
    public static func measure(rawPCM file: URL, sampleRate: Int, channels: Int, sampleFormat: String = "s16le",
                               skipSeconds: Double = 0, seconds: Double? = nil) throws -> LoudnessAnalysis {
        let duration = seconds.map { ["-t", "\($0)"] } ?? []
        return try measure(["-f", sampleFormat, "-ar", "\(sampleRate)", "-ac", "\(channels)", "-ss", "\(skipSeconds)"] + duration
            + ["-i", file.path])
    }

    /// Measures a media file ffmpeg can decode.
    public static func measure(media file: URL) throws -> LoudnessAnalysis {
        try measure(["-i", file.path])
    }

    private static func measure(_ input: [String]) throws -> LoudnessAnalysis {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-nostats"] + input
            + ["-af", "ebur128=peak=true", "-f", "null", "-"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.waitForExit() == .exited(0) else { throw FixtureError("ffmpeg ebur128 failed: \(text.suffix(2000))") }
        // The summary comes last: "I:  -23.0 LUFS" under "Integrated loudness", "Peak:  -1.2 dBFS" under "True peak".
        guard let summary = text.range(of: "Summary:", options: .backwards).map({ text[$0.upperBound...] }),
              let integrated = value(after: "I:", in: summary), let peak = value(after: "Peak:", in: summary)
        else { throw FixtureError("no ebur128 summary in ffmpeg's output: \(text.suffix(2000))") }
        return LoudnessAnalysis(integrated: integrated, truePeak: peak)
    }

    private static func value(after label: String, in text: Substring) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let word = text[range.upperBound...].split(separator: " ", omittingEmptySubsequences: true).first
        return word.flatMap { $0 == "-inf" ? -Double.infinity : Double($0) }
    }
}
