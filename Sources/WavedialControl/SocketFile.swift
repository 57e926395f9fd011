import Foundation

/// The file a Unix socket was bound to, known by its device and inode: what lets the process that bound
/// it remove it at exit, and never the file another process bound at the same path since.
public struct SocketFile: Equatable, Sendable {
    public let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The socket file now at `path`; nil when there is none (or something else is there).
    public init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Removes the file when `path` still names this socket. - Returns: whether it did.
    @discardableResult
    public func removeIfUnchanged() -> Bool {
        guard SocketFile(path: path) == self else { return false }
        return unlink(path) == 0
    }
}
