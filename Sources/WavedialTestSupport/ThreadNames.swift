import Foundation

/// The names of a process's threads as the kernel has them (`/proc/PID/task/TID/comm`): what
/// `top -H` and `ps -L` show.
public enum ThreadNames {
    public static func of(_ pid: Int32) -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return Set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) })
    }
}
