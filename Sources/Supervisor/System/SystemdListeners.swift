import Foundation

/// The listening sockets systemd passed in (socket activation: `LISTEN_PID`, `LISTEN_FDS`,
/// `LISTEN_FDNAMES`, descriptors from 3 on), by their `FileDescriptorName=`. The MPD server takes
/// `mpd` from `wavediald-mpd.socket`, so the socket unit's `IPAddressAllow=` applies to its clients.
public struct SystemdListeners: Sendable, Equatable {
    /// Descriptors by name.
    public let descriptors: [String: Int32]

    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstDescriptor: Int32 = 3
    /// More than any unit of ours passes: a larger count is not believed.
    static let maximumCount = 16

    /// Reads `environment` for process `pid`: none when they were meant for another process (`LISTEN_PID`).
    public init(environment: [String: String], pid: Int32) {
        guard let owner = environment["LISTEN_PID"].flatMap({ Int32($0) }), owner == pid,
              let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), (1...Self.maximumCount).contains(count) else {
            descriptors = [:]
            return
        }
        let names = (environment["LISTEN_FDNAMES"] ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var descriptors: [String: Int32] = [:]
        for index in 0..<count where index < names.count && !names[index].isEmpty {
            descriptors[names[index]] = Self.firstDescriptor + Int32(index)
        }
        self.descriptors = descriptors
    }

    /// This process's, its environment's variables then removed so that no child takes them for its own.
    public static func takeFromEnvironment() -> SystemdListeners {
        let listeners = SystemdListeners(environment: ProcessInfo.processInfo.environment, pid: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        for descriptor in listeners.descriptors.values { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return listeners
    }
}
