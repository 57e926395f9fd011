import Foundation

/// What a process holds, read from /proc: threads, open descriptors (sockets among them), resident memory.
struct ProcessResources: CustomStringConvertible {
    let threads: Int
    let descriptors: Int
    let sockets: Int
    let residentKiB: Int

    init(pid: Int32) throws {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? -1
        }
        threads = field("Threads")
        residentKiB = field("VmRSS")
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        descriptors = entries.count
        sockets = entries.filter {
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "").hasPrefix("socket:")
        }.count
    }

    var description: String { "\(threads) threads, \(descriptors) fds (\(sockets) sockets), RSS \(residentKiB) KiB" }
}
