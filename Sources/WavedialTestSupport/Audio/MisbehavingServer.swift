import CurlSupport
import Foundation

/// `Tests/AudioTests/Fixtures/misbehaving_server.py` on a loopback port, serving the cached test tone;
/// stopped by ``stop()`` (or when the test process dies: the script exits when its stdin closes).
public final class MisbehavingServer {
    public let port: Int
    /// A port nothing listens on, for dead playlist entries.
    public let deadPort: Int
    private let process: Process
    private let input: Pipe

    public init() throws {
        let mp3 = try TestMedia.tone()
        deadPort = freeLoopbackPort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestMedia.fixtures.appendingPathComponent("misbehaving_server.py").path,
                             mp3.path, "\(deadPort)"]
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableDataOrLine(), as: UTF8.self)
        guard let port = line.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            process.terminate()
            throw FixtureError("misbehaving_server.py did not report its port: \(line)")
        }
        self.port = port
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Makes every `/live.mp3` stream, open or new, send nothing while `stalled`, and at most
    /// `bytesPerSecond` when it is not nil (a trickle); an `httpStatus` other than 200 ends the open
    /// streams and answers new requests with it. The defaults are normal service.
    public func setLive(stalled: Bool = false, bytesPerSecond: Int? = nil, httpStatus: Int = 200) throws {
        let easy = try CurlEasy()
        try easy.set(.url(url("/control?stall=\(stalled ? 1 : 0)&rate=\(bytesPerSecond ?? 0)&status=\(httpStatus)")))
        try easy.set(.timeout(seconds: 2))
        try easy.set(.failOnHTTPError)
        try easy.perform { _ in true }
    }

    /// How many requests `path` had (its path only, the query left out); 0 when none or the server did not answer.
    public func requests(_ path: String) -> Int {
        guard let easy = try? CurlEasy() else { return 0 }
        var body = Data()
        do {
            try easy.set(.url(url("/stats")))
            try easy.set(.timeout(seconds: 2))
            try easy.set(.failOnHTTPError)
            try easy.perform { chunk in
                body.append(contentsOf: chunk)
                return true
            }
        } catch {
            return 0
        }
        let stats = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return ((stats?["requests"] as? [String: Any])?[path] as? Int) ?? 0
    }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitForExit()
    }

    deinit { if process.isRunning { stop() } }
}

extension FileHandle {
    /// Reads up to the first newline (the fixture's one-line hello).
    func availableDataOrLine() -> Data {
        var data = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { return data }
            data.append(byte)
        }
    }
}
