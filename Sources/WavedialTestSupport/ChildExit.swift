import Foundation

/// How a child process ended.
public enum ChildExit: Equatable, Sendable {
    case exited(Int32)
    case signaled(Int32)

    /// The exit code, or the signal's number: what Foundation's `terminationStatus` says.
    public var status: Int32 {
        switch self {
        case .exited(let code), .signaled(let code): return code
        }
    }
}

extension Process {
    /// Waits until the process has ended and says how. Foundation's own child watching has been seen to
    /// miss an exit under load: the child stays a zombie and `waitUntilExit()` waits for it forever (a
    /// test's Icecast feeder, and with it the whole test case until its time limit). So this also asks the
    /// kernel (`waitid` with `WNOWAIT`: the zombie is seen, not reaped, and its PID is not reused while
    /// Foundation may still signal it).
    /// - Returns: nil when `timeout` seconds pass first.
    @discardableResult
    public func waitForExit(timeout: Double = .infinity) -> ChildExit? {
        let deadline = Date(timeIntervalSinceNow: min(timeout, 1e9))
        var pause: useconds_t = 1_000
        while true {
            if !isRunning {
                return terminationReason == .exit ? .exited(terminationStatus) : .signaled(terminationStatus)
            }
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
               info._sifields._sigchld.si_pid == processIdentifier {
                let status = info._sifields._sigchld.si_status
                return info.si_code == CLD_EXITED ? .exited(status) : .signaled(status)
            }
            if Date() >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }
}
