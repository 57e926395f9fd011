import Foundation
import XCTest

/// A small tmpfs mounted for one test, which ``fill()`` fills to the last byte: the SD card that is full.
/// Mounting needs root; without it the test is skipped.
final class FullDisk {
    let path: String
    private var mounted = false

    init(sizeKiB: Int = 8192) throws {
        guard geteuid() == 0 else { throw XCTSkip("a tmpfs of its own needs root (mount)") }
        // Characters a `file:` URI must escape: the read-only fallback names the database by one.
        path = "/tmp/wd full ?#%-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(sizeKiB)k,mode=0755", "tmpfs", path]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("mount -t tmpfs failed (status \(mount.terminationStatus))") }
        mounted = true
    }

    func path(_ name: String) -> String { path + "/" + name }

    /// Writes a file of zeros until the file system refuses (ENOSPC), then gives back `leavingKiB`.
    /// - Throws: when it refuses for another reason.
    func fill(leavingKiB: Int = 0) throws {
        let descriptor = open(path("filler"), O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        // A short write fills the last block; the write after it says ENOSPC.
        while write(descriptor, block, block.count) >= 0 {}
        guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, ftruncate(descriptor, max(0, info.st_size - off_t(leavingKiB * 1024))) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    func remove() {
        if mounted { umount2(path, Int32(MNT_DETACH)) }
        mounted = false
        rmdir(path)
    }
}
