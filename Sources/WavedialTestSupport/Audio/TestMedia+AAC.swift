import Foundation

/// ADTS test streams, cached in `.build-media/` like the MP3 tones.
extension TestMedia {
    /// The HE-AAC flavours, as MPEG-4 audio object types name them.
    public enum HEAACProfile: String {
        /// AAC-LC core at half the rate plus SBR (object type 5).
        case heAAC = "he-aac"
        /// HE-AAC with parametric stereo: a mono core, stereo out (object type 29).
        case heAACv2 = "he-aacv2"
    }

    /// A sine tone as AAC-LC in ADTS frames, made by ffmpeg's own AAC encoder (bit-exact).
    public static func adtsTone(frequency: Int = 440, sampleRate: Int = 44100, channels: Int = 2, seconds: Int = 5,
                                kbps: Int = 128) throws -> URL {
        let name = "tone-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(kbps)k.aac"
        let target = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("\(name).\(getpid()).partial")
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                           "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                           "-ac", "\(channels)", "-c:a", "aac", "-b:a", "\(kbps)k",
                           "-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "adts", partial.path])
        _ = rename(partial.path, target.path)
        return target
    }

    /// A sine tone as HE-AAC or HE-AACv2 in ADTS frames (implicit SBR/PS signalling, as stations send it),
    /// made with Debian's libfdk-aac: Debian's ffmpeg cannot encode HE-AAC. The library is unpacked once into
    /// `.build-media/fdk-aac` by `scripts/fetch-fdk-aac` (non-free, never installed) and driven by
    /// `Tests/AudioTests/Fixtures/fdk_aac_encode.py`.
    /// HE-AACv2 needs `channels` 2 (its core is mono).
    public static func heAACTone(_ profile: HEAACProfile, frequency: Int = 440, sampleRate: Int = 44100, channels: Int = 2,
                                 seconds: Int = 5, kbps: Int = 48) throws -> URL {
        let name = "tone-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(kbps)k-\(profile.rawValue).aac"
        let target = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let library = try fdkAACLibrary()
        let partial = directory.appendingPathComponent("\(name).\(getpid()).partial")
        try run("python3", [fixtures.appendingPathComponent("fdk_aac_encode.py").path, "--lib", library,
                            "--profile", profile.rawValue, "--rate", "\(sampleRate)", "--channels", "\(channels)",
                            "--kbps", "\(kbps)", "--frequency", "\(frequency)", "--seconds", "\(seconds)", partial.path])
        _ = rename(partial.path, target.path)
        return target
    }

    /// The path of `libfdk-aac.so.2`, fetched on first use.
    private static func fdkAACLibrary() throws -> String {
        let script = ProjectPaths.root.appendingPathComponent("scripts/fetch-fdk-aac").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [directory.appendingPathComponent("fdk-aac").path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.waitForExit() == .exited(0), !path.isEmpty else {
            throw FixtureError("scripts/fetch-fdk-aac failed (HE-AAC test streams need Debian's libfdk-aac): \(message)")
        }
        return path
    }
}
