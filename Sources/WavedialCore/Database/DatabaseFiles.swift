import Foundation

/// The database's files on disk: the main file and SQLite's `-wal` and `-shm` beside it.
///
/// The daemon (user wavedial) and the CLI of group wavedial's members, and of root, share them,
/// whichever of them made a file: so each is 0660, whatever the umask (the unit's 0007 would leave
/// SQLite's 0644 at 0640, read-only for the group), and root makes none of them its own. SQLite
/// itself gives the `-wal` and `-shm` it opens the main file's mode and, run by root, its owner;
/// this covers the main file and files an earlier version or a killed process left behind.
struct DatabaseFiles {
    /// Read-write for the owner and the group, nothing for others.
    static let mode: mode_t = 0o660
    /// `O_PATH` and `AT_EMPTY_PATH`, Linux's generic values (x86_64, arm64), which Swift's Glibc
    /// module leaves out with the other GNU names.
    private static let pathOnly: Int32 = 0o10_000_000
    private static let emptyPath: Int32 = 0x1000
    let path: String

    private var folder: String { (path as NSString).deletingLastPathComponent }

    /// Creates the main file, when missing, with ``mode`` and, when root creates it, for the owner and
    /// group of its folder (`sudo wavedial sync` before the daemon's first start must not leave a
    /// database the daemon cannot write). An empty file is an empty database to SQLite.
    /// - Throws: `CocoaError` with the errno when the file cannot be created.
    func create() throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, Self.mode)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
        defer { close(fd) }
        _ = fchmod(fd, Self.mode)
        if geteuid() == 0, let owner = Self.status(of: folder) { _ = fchown(fd, owner.st_uid, owner.st_gid) }
    }

    /// Brings the files there are to ``mode`` and, as root, to the main file's owner and group (the
    /// folder's, when root owns the main file but not the folder: an earlier root-run CLI made it).
    /// Only files of this user, or any as root; links are not followed. Best effort: a file it cannot
    /// change is left for SQLite to report. Call before SQLite opens the database.
    ///
    /// The files are reached through `O_PATH` descriptors: closing any other descriptor of a file
    /// drops every POSIX lock this process holds on it, SQLite's included (another connection of this
    /// process would then look absent to other processes, which may reset the `-shm` under it).
    func share() {
        let root = geteuid() == 0
        var owner: (uid: uid_t, gid: gid_t)?
        if root {
            let main = Self.status(of: path), folderStatus = Self.status(of: folder)
            if let main, main.st_uid != 0 || folderStatus?.st_uid ?? 0 == 0 {
                owner = (main.st_uid, main.st_gid)
            } else if let folderStatus {
                owner = (folderStatus.st_uid, folderStatus.st_gid)
            }
        }
        for file in [path, path + "-wal", path + "-shm"] {
            let fd = open(file, Self.pathOnly | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if let owner, info.st_uid != owner.uid || info.st_gid != owner.gid {
                _ = fchownat(fd, "", owner.uid, owner.gid, Self.emptyPath)
            }
            if (root || info.st_uid == geteuid()) && info.st_mode & 0o7777 != Self.mode {
                // fchmod takes no O_PATH descriptor; its /proc link reaches the same file, not a new link.
                _ = chmod("/proc/self/fd/\(fd)", Self.mode)
            }
        }
    }

    private static func status(of path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }
}
