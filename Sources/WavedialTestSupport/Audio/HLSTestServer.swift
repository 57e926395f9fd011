import CurlSupport
import Foundation

/// `Tests/AudioTests/Fixtures/hls_server.py` on a loopback port, serving `root` (ffmpeg's live HLS
/// output or hand-made segments), with faults switched on at run time and a log of what was asked.
/// Stopped by ``stop()`` (or when the test process dies: the script exits when its stdin closes).
public final class HLSTestServer {
    public let port: Int
    private let process: Process
    private let input: Pipe

    public init(root: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestMedia.fixtures.appendingPathComponent("hls_server.py").path, root.path]
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableDataOrLine(), as: UTF8.self)
        guard let port = line.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            process.terminate()
            throw FixtureError("hls_server.py did not report its port: \(line)")
        }
        self.port = port
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Faults from now on (regular expressions over request paths; nil: none), see the script's usage.
    /// `synthesized` makes `/synth.m3u8` a live playlist over `segN.ts` files: (files, seconds each, window).
    public func setFaults(fail: String? = nil, truncate: String? = nil, garbage: String? = nil, stall: Bool = false,
                          synthesized: (count: Int, seconds: Double, window: Int)? = nil) throws {
        var query = ["stall=\(stall ? 1 : 0)"]
        for (key, value) in [("fail", fail), ("truncate", truncate), ("garbage", garbage)] {
            if let value { query.append("\(key)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)") }
        }
        if let synthesized { query.append("synth=\(synthesized.count),\(synthesized.seconds),\(synthesized.window)") }
        _ = try get("control?" + query.joined(separator: "&"))
    }

    /// The paths requested so far, in order.
    public func requests() throws -> [String] {
        String(decoding: try get("requests"), as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(separator: " ", maxSplits: 1).last.map(String.init)
        }
    }

    /// A GET through libcurl, as the player would.
    public func get(_ path: String) throws -> [UInt8] {
        let easy = try CurlEasy()
        try easy.set(.url(url(path)))
        try easy.set(.timeout(seconds: 5))
        try easy.set(.failOnHTTPError)
        var body: [UInt8] = []
        try easy.perform { chunk in
            body.append(contentsOf: chunk)
            return true
        }
        return body
    }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitForExit()
    }

    deinit { if process.isRunning { stop() } }
}

/// ffmpeg's own `hls` muxer writing a live stream of a sine tone into a folder, in real time (`-re`):
/// 1-second segments, 5 in the playlist, older ones deleted, every file written whole before it appears (`temp_file`).
public final class HLSLiveEncoder {
    /// What the encoder writes.
    public enum Layout {
        /// `live.m3u8` over MPEG-TS segments `segN.ts`.
        case transportStream
        /// `live.m3u8` over fMP4 segments `segN.m4s` after `init.mp4`.
        case fragmentedMP4
        /// `live.m3u8` over MPEG-TS segments encrypted with AES-128 (`key.bin`, named by the playlist).
        case encryptedTransportStream
        /// `master.m3u8` naming two AAC variants (32 and 96 kbit/s), `v0/live.m3u8` and `v1/live.m3u8`.
        case twoVariants
    }

    public let folder: URL
    private let process: Process

    public init(_ layout: Layout, in folder: URL, frequency: Int = 440) throws {
        self.folder = folder
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-re", "-f", "lavfi",
                         "-i", "sine=frequency=\(frequency):sample_rate=44100", "-ac", "2"]
        let hls = ["-f", "hls", "-hls_time", "1", "-hls_list_size", "5", "-hls_flags", "delete_segments+temp_file"]
        switch layout {
        case .transportStream:
            arguments += ["-c:a", "aac", "-b:a", "64k", "-ar", "44100"] + hls
                + ["-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path]
        case .fragmentedMP4:
            arguments += ["-c:a", "aac", "-b:a", "64k", "-ar", "44100"] + hls
                + ["-hls_segment_type", "fmp4", "-hls_segment_filename", folder.appendingPathComponent("seg%d.m4s").path]
        case .encryptedTransportStream:
            let key = folder.appendingPathComponent("key.bin")
            try Data((0..<16).map { _ in UInt8.random(in: 0...255) }).write(to: key)
            let info = folder.appendingPathComponent("key.info")
            try "key.bin\n\(key.path)\n".write(to: info, atomically: true, encoding: .utf8)
            arguments += ["-c:a", "aac", "-b:a", "64k", "-ar", "44100"] + hls
                + ["-hls_key_info_file", info.path, "-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path]
        case .twoVariants:
            arguments += ["-map", "0:a", "-map", "0:a", "-c:a", "aac", "-b:a:0", "32k", "-b:a:1", "96k", "-ar", "44100"] + hls
                + ["-master_pl_name", "master.m3u8", "-var_stream_map", "a:0 a:1",
                   "-hls_segment_filename", folder.appendingPathComponent("v%v/seg%d.ts").path]
        }
        let playlist = layout == .twoVariants ? "v%v/live.m3u8" : "live.m3u8"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg"] + arguments + [folder.appendingPathComponent(playlist).path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the playlist at `path` (relative to the folder) lists `count` segments.
    public func waitForSegments(_ count: Int, in path: String = "live.m3u8", timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8),
               text.components(separatedBy: "#EXTINF").count - 1 >= count {
                return
            }
            usleep(100_000)
        }
        throw FixtureError("ffmpeg wrote no \(count) segments into \(path) within \(timeout) s")
    }

    public func stop() {
        // SIGKILL: a terminated ffmpeg would end the playlist with EXT-X-ENDLIST.
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }

    deinit { if process.isRunning { stop() } }
}
