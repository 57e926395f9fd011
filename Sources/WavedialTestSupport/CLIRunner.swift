import Foundation

/// Runs the built `wavedial` binary as a person would, black box.
public struct CLIRunner {
    /// How a run ended and what it printed.
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var stderrLines: [Substring] { stderr.split(separator: "\n") }

        public func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    /// The built `wavedial`.
    public var binary = ProjectPaths.product("wavedial")
    /// Added to the test's own environment (whose `WAVEDIAL_CONFIG` is dropped).
    public var environment: [String: String] = [:]

    public init() {}

    /// Runs `wavedial` with `arguments` and waits for it to end.
    @discardableResult
    public func run(_ arguments: String...) throws -> Result { try run(arguments) }

    /// Runs `wavedial` with `arguments`; one still running after `timeout` seconds is stopped.
    public func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["WAVEDIAL_CONFIG"] = nil
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read stderr on another thread while stdout is read here, so a chatty command cannot
        // block on a full pipe; a command that hangs is stopped after `timeout`, and killed 5 s later
        // if SIGTERM did not end it.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            guard process.isRunning else { return }
            process.terminate()
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let errorReader = PipeReader(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorReader.wait()
        let exit = process.waitForExit()
        watchdog.cancel()
        return Result(status: exit?.status ?? -1, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a background thread.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
