import Foundation
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// The database is shared by the daemon (user wavedial) and the CLI of group wavedial's members
/// (and root), whichever of them creates it or its `-wal`/`-shm`: files 0660, owned as their folder.
final class DatabaseFilePermissionsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var databasePath: String { directory.path("wavedial.sqlite") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory.remove()
    }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    private func owner(_ path: String) -> String? {
        var info = stat()
        return lstat(path, &info) == 0 ? "\(info.st_uid):\(info.st_gid)" : nil
    }

    /// The unit's UMask (0007) or an SSH session's (022, 027) would leave SQLite's 0644 at 0640 or
    /// 0644: the group could then read but not write, and a CLI run would break the daemon's next write.
    func testCreatedUnderARestrictiveUmaskTheDatabaseAndItsSideFilesAreGroupWritable() throws {
        let previous = umask(0o027)
        defer { umask(previous) }
        let database = try WavedialDatabase.open(path: databasePath)
        try database.setLocation(Coordinate(latitude: 52.5, longitude: 13.4))
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertEqual(mode(databasePath + suffix).map { String($0, radix: 8) }, "660", "wavedial.sqlite\(suffix)")
        }
    }

    /// A database made 0640 by an earlier wavedial becomes 0660 when its owner opens it (the daemon
    /// after an upgrade), so that the group's CLI can write it from then on.
    func testAnExistingDatabaseOfTheOwnerIsMadeGroupWritable() throws {
        do { _ = try WavedialDatabase.open(path: databasePath) }
        XCTAssertEqual(chmod(databasePath, 0o640), 0)
        let database = try WavedialDatabase.open(path: databasePath)
        try database.setLocation(Coordinate(latitude: 52.5, longitude: 13.4))
        XCTAssertEqual(mode(databasePath).map { String($0, radix: 8) }, "660")
        XCTAssertEqual(mode(databasePath + "-wal").map { String($0, radix: 8) }, "660")
    }

    /// Root (`sudo wavedial sync` before the daemon's first start) creates the database for the owner
    /// of its folder, not for root: the daemon could not write a root-owned file.
    func testRootCreatesTheDatabaseAndItsSideFilesForTheOwnerOfTheFolder() throws {
        try XCTSkipUnless(geteuid() == 0, "needs root")
        XCTAssertEqual(chown(directory.url.path, 4242, 4343), 0)
        let database = try WavedialDatabase.open(path: databasePath)
        try database.setLocation(Coordinate(latitude: 52.5, longitude: 13.4))
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertEqual(owner(databasePath + suffix), "4242:4343", "wavedial.sqlite\(suffix)")
            XCTAssertEqual(mode(databasePath + suffix).map { String($0, radix: 8) }, "660", "wavedial.sqlite\(suffix)")
        }
    }

    /// `-wal`/`-shm` left behind by a root-run CLI of an earlier wavedial (killed, so SQLite did not
    /// remove them) are handed back to the folder's owner the next time root opens the database.
    func testRootHandsLeftoverSideFilesBackToTheOwnerOfTheFolder() throws {
        try XCTSkipUnless(geteuid() == 0, "needs root")
        do { _ = try WavedialDatabase.open(path: databasePath) }
        XCTAssertEqual(chown(directory.url.path, 4242, 4343), 0)
        XCTAssertEqual(chown(databasePath, 4242, 4343), 0)
        let leftover = databasePath + "-shm"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data(), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(owner(leftover), "0:0")
        let database = try WavedialDatabase.open(path: databasePath)
        try database.setLocation(Coordinate(latitude: 52.5, longitude: 13.4))
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertEqual(owner(databasePath + suffix), "4242:4343", "wavedial.sqlite\(suffix)")
            XCTAssertEqual(mode(databasePath + suffix).map { String($0, radix: 8) }, "660", "wavedial.sqlite\(suffix)")
        }
    }

    /// Closing a descriptor of a file drops every POSIX lock the process holds on it: were the files
    /// reached that way, SQLite's locks of a connection already open in this process would be gone,
    /// and another process would reset the `-shm` under it (the daemon then crashed in SQLite).
    func testSharingTheFilesKeepsThisProcesssLocksOnThem() throws {
        let database = try WavedialDatabase.open(path: databasePath)
        try database.setLocation(Coordinate(latitude: 52.5, longitude: 13.4))
        let shm = databasePath + "-shm"
        let fd = open(shm, O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 200
        lock.l_len = 1
        XCTAssertEqual(fcntl(fd, F_SETLK, &lock), 0)
        XCTAssertEqual(chmod(shm, 0o600), 0)
        DatabaseFiles(path: databasePath).share()
        XCTAssertEqual(mode(shm).map { String($0, radix: 8) }, "660")
        // Another process must still find the byte locked.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 200)
            except OSError:
                sys.exit(3)
            """, shm]
        try probe.run()
        XCTAssertEqual(probe.waitForExit(timeout: 30), .exited(3), "the lock was gone")
    }

    /// A symbolic link planted in the (group-writable) folder is not followed: root neither chowns
    /// nor chmods what it points to.
    func testALinkInPlaceOfASideFileIsNotFollowed() throws {
        try XCTSkipUnless(geteuid() == 0, "needs root")
        do { _ = try WavedialDatabase.open(path: databasePath) }
        XCTAssertEqual(chown(directory.url.path, 4242, 4343), 0)
        let target = directory.path("precious")
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data("x".utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(symlink(target, databasePath + "-shm"), 0)
        _ = try? WavedialDatabase.open(path: databasePath)
        XCTAssertEqual(owner(target), "0:0")
        XCTAssertEqual(mode(target).map { String($0, radix: 8) }, "600")
    }
}
