import Foundation
import WavedialTestSupport

/// A program run on a pseudo-terminal, as a person runs it in a terminal window: its stdin, stdout and
/// stderr are the terminal's (so `isatty` holds and it may switch the terminal to raw mode), everything it
/// writes is collected, and ``type(_:)`` presses keys.
final class PseudoTerminal: @unchecked Sendable {
    let process = Process()
    private let master: Int32
    /// The terminal's own side, kept open so its settings can be read after the program has ended
    /// (until ``ended()`` or ``close()``).
    private let terminal: Int32
    private var terminalClosed = false
    private let lock = NSLock()
    private var written = Data()
    private let readerDone = DispatchSemaphore(value: 0)

    init(executable: URL, arguments: [String], environment: [String: String]) throws {
        // posix_openpt, unlockpt and ptsname are not in Swift's Glibc module: their ioctls, as glibc
        // makes them on Linux (TIOCSPTLCK and TIOCGPTN, whose encodings are the same on x86_64 and arm64).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw FixtureError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw FixtureError("cannot open /dev/pts/\(number)") }
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                // EIO once every process holding the terminal's side has closed it: the program has
                // ended and ``close()`` closed `terminal`.
                guard count > 0 else { break }
                lock.withLock { written.append(contentsOf: buffer[0..<count]) }
            }
            readerDone.signal()
        }
    }

    /// Everything the program wrote so far, as text (escape sequences included).
    var output: String { lock.withLock { String(decoding: written, as: UTF8.self) } }

    /// Presses keys: the bytes go to the program's stdin as a terminal sends them.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The terminal's settings now (the program may have changed them).
    var settings: termios {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings
    }

    /// Waits until the output holds `text`. - Returns: whether it did within `timeout` seconds.
    func waitForOutput(containing text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return true }
            usleep(50_000)
        }
        return output.contains(text)
    }

    /// Once the program has ended: everything it wrote and the terminal's settings it left. `output` read
    /// right after the exit can miss its last bytes, still in the terminal for the reader to take; here the
    /// terminal's side is closed, so the reader ends (EIO) only once it has taken them all.
    func ended() -> (output: String, settings: termios) {
        let settings = self.settings
        closeTerminal()
        _ = readerDone.wait(timeout: .now() + 5)
        return (output, settings)
    }

    /// Ends the program if it still runs and closes the terminal.
    func close() {
        if process.isRunning {
            process.terminate()
            if process.waitForExit(timeout: 10) == nil { kill(process.processIdentifier, SIGKILL) }
        }
        if !terminalClosed {
            closeTerminal()
            _ = readerDone.wait(timeout: .now() + 2)
        }
        Glibc.close(master)
    }

    private func closeTerminal() {
        Glibc.close(terminal)
        terminalClosed = true
    }
}
