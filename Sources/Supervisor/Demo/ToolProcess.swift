import Foundation
import Threads

/// Runs a command-line tool (espeak-ng, ffmpeg) to its end for the demo band's media, and can stop it
/// half-way: a daemon told to stop while it makes media kills the tool and leaves no child behind.
///
/// Spawned with `posix_spawn` and waited for with `waitpid` on this PID only, so nothing else in the
/// process reaps it. The child starts with an empty signal mask and default dispositions (the daemon
/// blocks SIGTERM and ignores SIGPIPE, which a child would otherwise inherit across `exec`). Call from
/// one thread; it blocks.
struct ToolProcess {
    /// The tool's executable, found on `PATH`.
    let executable: String
    let arguments: [String]

    /// The executable called `name` on `path` (a `PATH` value), nil when none is.
    static func find(_ name: String, path: String) -> String? {
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs the tool with stdin and stdout on /dev/null and stderr into `errorLog`, polling
    /// `shouldContinue` every 20 ms; when it turns false the tool is killed (SIGKILL) and reaped.
    /// - Throws: ``DemoBandError/cancelled`` when stopped, ``DemoBandError/toolFailed(_:status:message:)``
    ///   with the end of its stderr when it fails, ``DemoBandError/spawnFailed(_:errno:)``.
    func run(errorLog: String, shouldContinue: () -> Bool) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { pointers in
            posix_spawn(&pid, executable, &actions, &attributes, pointers.baseAddress!, environ)
        }
        guard result == 0 else { throw DemoBandError.spawnFailed(executable, errno: result) }

        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw DemoBandError.toolFailed(executable, status: -1, message: "waitpid failed") }
            if !shouldContinue() {
                kill(pid, SIGKILL)
                _ = Interruptible.retry { waitpid(pid, &status, 0) }
                throw DemoBandError.cancelled
            }
            usleep(20_000)
        }
        // WIFEXITED and WEXITSTATUS are macros: the low 7 bits hold the signal, the next 8 the exit code.
        let signal = status & 0x7F, code = (status >> 8) & 0xFF
        // Ctrl-C reaches the tool with the daemon (one process group): its failure is the stop's.
        guard shouldContinue() else { throw DemoBandError.cancelled }
        guard signal == 0 && code == 0 else {
            throw DemoBandError.toolFailed(executable, status: signal == 0 ? code : 128 + signal, message: Self.tail(of: errorLog))
        }
    }

    /// The last lines the tool wrote to stderr (at most 600 bytes), for the error message.
    private static func tail(of path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data.suffix(600), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
