import Foundation
import WavedialTestSupport

/// `wavedial status --follow --json` in the background: every state the daemon published,
/// including short ones a poll would miss.
final class StatusFollower: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var seen: [[String: Any]] = []

    init(binary: URL, environment: [String: String]) throws {
        process.executableURL = binary
        process.arguments = ["status", "--follow", "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending.removeSubrange(pending.startIndex...newline)
                    if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                        lock.withLock { seen.append(object) }
                    }
                }
            }
        }
    }

    /// The statuses seen so far.
    var statuses: [[String: Any]] { lock.withLock { seen } }
    var states: [String] { statuses.compactMap { $0["state"] as? String } }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitForExit()
    }

    deinit { stop() }
}
