import Foundation

/// One daemon per database: an exclusive `flock` on a file beside it (`wavedial.sqlite` →
/// `wavedial.sqlite.lock`), held for the life of the process and released by the kernel when it ends,
/// however it ends. Taken before anything touches the database, the control socket or the log, so a
/// second daemon on the same database leaves without disturbing the first.
///
/// `flock`, not a POSIX lock: a POSIX lock is dropped when the process closes any descriptor of the
/// file, and SQLite opens and closes descriptors of its own files all the time. The lock file holds the
/// owner's pid, for the second daemon's message only; the lock itself is the proof.
public final class DaemonLock {
    /// Another daemon holds the lock.
    public struct HeldElsewhere: Error, CustomStringConvertible {
        public let database: String
        /// The holder's pid, as it wrote it (nil when it could not).
        public let pid: Int32?
        public var description: String {
            "another wavediald already runs on \(database)" + (pid.map { " (pid \($0))" } ?? "")
        }
    }

    /// The lock file could not be made or opened.
    public struct Unavailable: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "cannot lock \(path): \(String(cString: strerror(code)))" }
    }

    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The lock file of `database`.
    public static func path(for database: String) -> String { database + ".lock" }

    /// Takes the lock of `database` without waiting, creating its folder and lock file when missing.
    /// - Throws: ``HeldElsewhere`` when another process holds it, ``Unavailable`` when the file cannot be opened.
    public static func acquire(database: String) throws -> DaemonLock {
        let path = path(for: database)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        // Close-on-exec: a child (the demo band's ffmpeg) must not keep the lock after the daemon ended.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else { throw Unavailable(path: path, code: errno) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            let holder = readPID(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK { throw HeldElsewhere(database: database, pid: holder) }
            throw Unavailable(path: path, code: code)
        }
        // Best effort: on a full disk the pid is not written, and the lock holds all the same.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 { _ = pwrite(descriptor, pid, pid.count, 0) }
        return DaemonLock(path: path, descriptor: descriptor)
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
