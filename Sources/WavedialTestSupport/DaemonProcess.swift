import Foundation

/// `wavediald --headless` (or with other `modeArguments`, e.g. none for the appliance) run as a separate
/// process, as systemd would run it.
public final class DaemonProcess {
    public let process = Process()
    public let logPath: String
    public let socketPath: String

    /// - Parameters:
    ///   - launcher: a command that execs the daemon in its place (its PID stays the daemon's),
    ///     e.g. `ip netns exec NAME` to run it in a network namespace.
    ///   - modeArguments: `--headless` by default; none for the appliance.
    public init(configPath: String, socketPath: String, logPath: String, extraEnvironment: [String: String] = [:],
         launcher: [String] = [], modeArguments: [String] = ["--headless"]) throws {
        self.socketPath = socketPath
        self.logPath = logPath
        let daemon = ProjectPaths.product("wavediald")
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
    public func waitUntilReady(timeout: TimeInterval = 20) -> Bool {
        var exited = false
        let answered = eventually(timeout: timeout, pollingEvery: 0.02) {
            exited = !process.isRunning
            guard !exited, let socket = try? StreamSocketProbe.connect(socketPath) else { return exited }
            close(socket)
            return true
        }
        return answered && !exited
    }

    /// SIGTERM, then waits for the exit; returns the exit status (nil if it did not stop).
    public func terminate(timeout: TimeInterval = 15) -> Int32? {
        process.terminate()
        return waitForExit(timeout: timeout)
    }

    /// SIGKILL: a pulled plug, as far as the process can tell.
    public func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(timeout: 10)
    }

    /// The exit status once the daemon has ended, nil if it still runs after `timeout` seconds.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        process.waitForExit(timeout: timeout)?.status
    }

    /// What the daemon printed so far (stdout and stderr).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { kill() }
    }
}

/// Connects to a Unix socket, for readiness probes.
public enum StreamSocketProbe {
    /// A connected descriptor (the caller closes it); throws when nothing listens at `path`.
    public static func connect(_ path: String) throws -> Int32 {
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
