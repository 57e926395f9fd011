import Foundation

/// Deterministic test audio, generated once with ffmpeg and cached in `.build-media/` at the package root.
public enum TestMedia {
    static let directory = ProjectPaths.root.appendingPathComponent(".build-media")

    /// The fixture scripts folder (`Tests/AudioTests/Fixtures`).
    public static let fixtures = ProjectPaths.root.appendingPathComponent("Tests/AudioTests/Fixtures")

    /// A sine tone as CBR MP3 without ID3 or Xing frames (bit-exact, so the cache never goes stale).
    public static func tone(frequency: Int = 440, sampleRate: Int = 44100, channels: Int = 2, seconds: Int = 30,
                     kbps: Int = 128) throws -> URL {
        let name = "tone-\(frequency)Hz-\(sampleRate)-\(channels)ch-\(seconds)s-\(kbps)k.mp3"
        return try cached(name) { partial in
            try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                               "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                               "-ac", "\(channels)", "-c:a", "libmp3lame", "-b:a", "\(kbps)k",
                               "-fflags", "+bitexact", "-flags:a", "+bitexact", "-write_xing", "0", "-id3v2_version", "0",
                               "-f", "mp3", partial.path])
        }
    }

    /// The file `name` in the media cache, made by `make` (given a partial path to write) when missing.
    static func cached(_ name: String, make: (URL) throws -> Void) throws -> URL {
        let target = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("\(name).\(getpid()).partial")
        try make(partial)
        // Parallel test processes may race here; rename is atomic and either copy is the same.
        _ = rename(partial.path, target.path)
        return target
    }

    /// Runs a tool to completion; throws with its stderr when it fails.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        guard process.waitForExit() == .exited(0) else {
            throw FixtureError("\(tool) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A free TCP port on 127.0.0.1 (bound, then released), for a server started right after.
public func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            _ = bind(fd, pointer, length)
            _ = getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
