import Foundation
import XCTest
@testable import Supervisor

/// The notify protocol against a real datagram socket standing in for systemd's.
final class SystemdNotifierTests: XCTestCase {
    /// A bound `AF_UNIX` datagram socket: the manager's end of `$NOTIFY_SOCKET`.
    private final class ManagerSocket {
        let fd: Int32

        /// Binds `path`, or the abstract name after a leading "@".
        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(path.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }

        /// The next datagram, nil when none is queued.
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
        }

        deinit { close(fd) }
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testStatesReachTheManagerAsDatagrams() throws {
        let path = directory.appendingPathComponent("notify.sock").path
        let manager = try ManagerSocket(path: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000"])
        XCTAssertEqual(notifier.watchdogInterval, 20)
        XCTAssertTrue(notifier.notify("READY=1\nSTATUS=playing radio"))
        XCTAssertTrue(notifier.notify("WATCHDOG=1"))
        XCTAssertEqual(manager.receive(), "READY=1\nSTATUS=playing radio")
        XCTAssertEqual(manager.receive(), "WATCHDOG=1")
        XCTAssertNil(manager.receive())
    }

    func testAbstractSocketNames() throws {
        let name = "@wavedial-notify-test-\(UUID().uuidString.prefix(8))"
        let manager = try ManagerSocket(path: name)
        XCTAssertTrue(SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).notify("STOPPING=1"))
        XCTAssertEqual(manager.receive(), "STOPPING=1")
    }

    func testOutsideSystemdNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        XCTAssertFalse(notifier.notify("READY=1"))
        XCTAssertNil(notifier.watchdogInterval)
        XCTAssertFalse(SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).notify("READY=1"))
    }

    /// A manager that stops reading fills its queue; the next notification fails at once instead of
    /// blocking the watchdog timer (a blocked send would hang this test until the runner's limit).
    func testAFullQueueFailsInsteadOfBlocking() throws {
        let path = directory.appendingPathComponent("stuck.sock").path
        let manager = try ManagerSocket(path: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        var delivered = 0
        while notifier.notify("WATCHDOG=1") {
            delivered += 1
            if delivered > 100_000 { return XCTFail("the queue never filled") }
        }
        XCTAssertGreaterThan(delivered, 0)
        XCTAssertEqual(manager.receive(), "WATCHDOG=1", "what was queued is still there")
        XCTAssertTrue(notifier.notify("WATCHDOG=1"), "room again after the manager read one")
    }

    func testNoSocketAtThePathIsAFailureNotACrash() {
        let path = directory.appendingPathComponent("absent.sock").path
        XCTAssertFalse(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).notify("READY=1"))
        let tooLong = "/" + String(repeating: "x", count: 200)
        XCTAssertFalse(SystemdNotifier(environment: ["NOTIFY_SOCKET": tooLong]).notify("READY=1"))
    }
}
