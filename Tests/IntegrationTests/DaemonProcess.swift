import Foundation
import WavedialTestSupport

/// `wavediald --headless` (or with other `modeArguments`, e.g. none for the appliance) run as a separate
/// process, as systemd would run it.
final class DaemonProcess {
    let process = Process()
    let logPath: String
    let socketPath: String

    /// - Parameters:
    ///   - launcher: a command that execs the daemon in its place (its PID stays the daemon's),
    ///     e.g. `ip netns exec NAME` to run it in a network namespace.
    ///   - modeArguments: `--headless` by default; none for the appliance.
    init(configPath: String, socketPath: String, logPath: String, extraEnvironment: [String: String] = [:],
         launcher: [String] = [], modeArguments: [String] = ["--headless"]) throws {
        self.socketPath = socketPath
        self.logPath = logPath
        let daemon = ProjectPaths.product("wavediald", besides: Bundle(for: BundleMarker.self))
        let arguments = ["--config", configPath] + modeArguments
        if launcher.isEmpty {
            process.executableURL = daemon
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [daemon.path] + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extraEnvironment) { _, new in new }
        process.environment = environment
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logPath]) }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the control socket answers (the daemon is ready).
    func waitUntilReady(timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !process.isRunning { return false }
            if let socket = try? StreamSocketProbe.connect(socketPath) { close(socket); return true }
            usleep(20_000)
        }
        return false
    }

    /// SIGTERM, then waits for the exit; returns the exit status (nil if it did not stop).
    func terminate(timeout: TimeInterval = 15) -> Int32? {
        process.terminate()
        return waitForExit(timeout: timeout)
    }

    /// SIGKILL: a pulled plug, as far as the process can tell.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(timeout: 10)
    }

    func waitForExit(timeout: TimeInterval) -> Int32? {
        process.waitForExit(timeout: timeout)?.status
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { kill() }
    }
}

/// Connects to a Unix socket, for readiness probes.
enum StreamSocketProbe {
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw CocoaError(.fileNoSuchFile)
        }
        return fd
    }
}
