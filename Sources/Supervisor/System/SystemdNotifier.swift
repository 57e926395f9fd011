import Foundation

/// systemd's notify protocol without libsystemd: datagrams to `$NOTIFY_SOCKET`
/// (`READY=1`, `WATCHDOG=1`, `STATUS=…`, `STOPPING=1`). Does nothing outside systemd.
/// Each message goes out on a socket of its own and never waits: a manager that does not read its
/// queue loses a status line, but the watchdog timer or a signal handler calling here is not held up.
public final class SystemdNotifier: Sendable {
    private let path: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(UInt64.init).map { Double($0) / 1e6 }
    }

    /// How often systemd wants `WATCHDOG=1` (`WatchdogSec=`), nil when it does not.
    public let watchdogInterval: Double?

    /// Sends `state` (lines like `READY=1`); returns whether it was delivered, false at once when the
    /// manager's queue is full.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let path else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        // An abstract socket is given with a leading '@' and has a NUL in its first byte.
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
            }
        }
        return sent == message.count
    }
}
