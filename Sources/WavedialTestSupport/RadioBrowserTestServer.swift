import Foundation

/// The Radio Browser stand-in (`Tests/Fixtures/radio_browser_server.py`) running on
/// 127.0.0.1 with a port of its own. Stop it with ``stop()``.
public final class RadioBrowserTestServer {
    /// How the server answers `/json/stations` (`trickle`: a few bytes a second, for ever).
    public enum Mode: String {
        case ok, error, hang, malformed, truncated, notarray, trickle
    }

    public let port: Int
    /// Lines "path<TAB>User-Agent<TAB>Accept-Encoding", one per request.
    public let logPath: String
    private let process: Process

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server serving `stations` (written to a file in `directory`).
    public init(stations: Data, mode: Mode = .ok, directory: TemporaryDirectory) throws {
        let file = directory.path("stations-\(UUID().uuidString).json")
        try stations.write(to: URL(fileURLWithPath: file))
        logPath = directory.path("requests-\(UUID().uuidString).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ProjectPaths.fixtures.appendingPathComponent("radio_browser_server.py").path,
                             "--stations", file, "--mode", mode.rawValue, "--log", logPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = Self.readLine(output.fileHandleForReading)
        guard let port = Int(line) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "test server did not start: '\(line)'"])
        }
        self.port = port
    }

    /// The requests the server received so far.
    public func requests() -> [(path: String, userAgent: String, acceptEncoding: String)] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields.count > 1 ? fields[1] : "", fields.count > 2 ? fields[2] : "")
        }
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitForExit()
        }
    }

    deinit { stop() }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
