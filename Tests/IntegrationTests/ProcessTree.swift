import Foundation

/// What a process left behind, seen from outside: its child processes (from /proc) and whether a
/// loopback port still takes connections.
enum ProcessTree {
    /// The processes whose parent is `pid`, from each `/proc/N/stat` (its fourth field).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.range(of: ")", options: .backwards)  // the name may hold spaces and parentheses
            else { return nil }
            let fields = stat[end.upperBound...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }.sorted()
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    static func canConnect(toLoopbackPort port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
