import Foundation
import WavedialTestSupport

/// `Tests/Fixtures/icy_station_server.py` on a loopback port: an endless ICY stream of the cached test
/// tone whose `icy-name` and `StreamTitle` are exactly the bytes given (escape sequences included), and
/// a log of the User-Agent each request sent. Stopped by ``stop()`` (or when the test process dies).
final class ICYStationServer {
    let port: Int
    private let logPath: String
    private let process: Process
    private let input = Pipe()

    var url: String { "http://127.0.0.1:\(port)/live" }

    init(name: String, title: String, directory: TemporaryDirectory) throws {
        func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
        logPath = directory.path("icy-requests-\(UUID().uuidString.prefix(8)).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ProjectPaths.fixtures.appendingPathComponent("icy_station_server.py").path,
                             try TestMedia.tone().path, hex(name), hex(title), logPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line: [UInt8] = []
        while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw FixtureError("icy_station_server.py did not report its port")
        }
        self.port = port
    }

    /// The User-Agent of each request so far, in order.
    var userAgents: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitForExit()
    }
}
