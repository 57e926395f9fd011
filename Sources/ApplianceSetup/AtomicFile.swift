import Foundation
import Glibc

/// Files replaced whole: a pulled plug leaves the old version or the new one, never half of either. The new
/// content goes to a temporary file in the same folder, which is synced, renamed over the old name, and the
/// folder synced (so the rename itself is on the card). Parent folders are made as needed. Any thread.
enum AtomicFile {
    /// Writes `bytes` at `path` with `mode` (whatever the umask). With `folderGroup`, the file gets the group
    /// of its folder (the daemon's, when root writes its settings).
    /// - Throws: ``SetupWriteError`` naming the path and the failing call.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t, folderGroup: Bool = false) throws(SetupWriteError) {
        let folder = try makeFolder(of: path)
        var template = Array("\(folder)/.\((path as NSString).lastPathComponent).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SetupWriteError(path: path, call: "mkstemp") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw SetupWriteError(path: temporary, call: "fchmod") }
            if folderGroup {
                var info = stat()
                guard stat(folder, &info) == 0 else { throw SetupWriteError(path: folder, call: "stat") }
                // Owner unchanged (-1): root's file, readable by the folder's group.
                guard fchown(fd, uid_t.max, info.st_gid) == 0 else { throw SetupWriteError(path: temporary, call: "fchown") }
            }
            try writeAll(bytes, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw SetupWriteError(path: temporary, call: "fsync") }
        }
        guard rename(temporary, path) == 0 else { throw SetupWriteError(path: path, call: "rename") }
        done = true
        try syncFolder(folder)
    }

    /// Makes `path` a symbolic link to `target` (as given: not resolved, not checked), replacing what is there.
    /// - Throws: ``SetupWriteError``.
    static func symlink(at path: String, to target: String) throws(SetupWriteError) {
        let folder = try makeFolder(of: path)
        let temporary = "\(folder)/.\((path as NSString).lastPathComponent).\(getpid()).link"
        unlink(temporary)
        guard Foundation.symlink(target, temporary) == 0 else { throw SetupWriteError(path: temporary, call: "symlink") }
        guard rename(temporary, path) == 0 else {
            let error = SetupWriteError(path: path, call: "rename")
            unlink(temporary)
            throw error
        }
        try syncFolder(folder)
    }

    /// Removes `path` if it is there, and syncs its folder.
    /// - Throws: ``SetupWriteError`` unless the file was already absent.
    static func remove(_ path: String) throws(SetupWriteError) {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return }
            throw SetupWriteError(path: path, call: "unlink")
        }
        try syncFolder(folder(of: path))
    }

    /// The folder `path` is in; `.` for a bare file name.
    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    private static func makeFolder(of path: String) throws(SetupWriteError) -> String {
        let folder = folder(of: path)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SetupWriteError(path: folder, call: "mkdir", message: "\(error)")
        }
        return folder
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(SetupWriteError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SetupWriteError(path: path, call: "write")
            }
            offset += written
        }
    }

    private static func syncFolder(_ folder: String) throws(SetupWriteError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SetupWriteError(path: folder, call: "open") }
        defer { close(fd) }
        // vfat (the boot partition) may refuse to sync a folder; its rename is then as durable as it gets.
        guard fsync(fd) == 0 || errno == EINVAL else { throw SetupWriteError(path: folder, call: "fsync") }
    }
}

/// A file `wavedial setup apply` could not write.
public struct SetupWriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder.
    public let path: String
    /// The system call that failed (`rename`), or the step.
    public let call: String
    public let message: String

    /// From `errno`, read now.
    init(path: String, call: String) {
        self.init(path: path, call: call, message: String(cString: strerror(errno)))
    }

    init(path: String, call: String, message: String) {
        self.path = path
        self.call = call
        self.message = message
    }

    public var description: String { "\(path): \(call): \(message)" }
}
