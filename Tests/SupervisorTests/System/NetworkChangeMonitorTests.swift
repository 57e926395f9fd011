import Foundation
import Logging
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The route netlink monitor: which announcements it tells (an address or a route added), read from the
/// kernel's own messages, and the kernel telling it when an address is added to an interface.
final class NetworkChangeMonitorTests: XCTestCase {
    /// A netlink message: `struct nlmsghdr` (host byte order) and `payload` bytes, padded to 4.
    private func message(type: UInt16, payload: Int = 8, length: UInt32? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: length ?? UInt32(16 + payload)) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        bytes += [0, 0] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xAB, count: payload)
        return bytes + [UInt8](repeating: 0, count: (4 - payload % 4) % 4)
    }

    func testAddedAddressesAndRoutesAreToldOthersAreNot() {
        let newLink: UInt16 = 16, newAddr: UInt16 = 20, delAddr: UInt16 = 21, newRoute: UInt16 = 24, delRoute: UInt16 = 25
        func told(_ bytes: [UInt8]) -> Bool { RouteNetlinkSocket.announcesAddedAddressOrRoute(bytes[...]) }
        XCTAssertTrue(told(message(type: newAddr)))
        XCTAssertTrue(told(message(type: newRoute, payload: 27)))
        XCTAssertFalse(told(message(type: newLink)))
        XCTAssertFalse(told(message(type: delAddr) + message(type: delRoute)))
        // Several messages in one read: walked by their lengths, padded to 4.
        XCTAssertTrue(told(message(type: newLink, payload: 5) + message(type: delRoute) + message(type: newAddr)))
        // Lengths that do not fit end the walk: shorter than a header, past the read, or no bytes at all.
        XCTAssertFalse(told(message(type: newLink, length: 8) + message(type: newAddr)))
        XCTAssertFalse(told(message(type: newLink, length: 4096) + message(type: newAddr)))
        XCTAssertFalse(told(Array(message(type: newAddr).prefix(15))))
        XCTAssertFalse(told([]))
    }

    /// Adds an address to an interface of its own, a dummy or else a veth pair (root only; removed after).
    func testTheKernelTellsAnAddressAdded() throws {
        guard geteuid() == 0 else { throw XCTSkip("adding an interface needs root") }
        let interface = "wdt\(getpid() % 100_000)"
        func ip(_ arguments: String...) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ip"] + arguments
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        guard try ip("link", "add", interface, "type", "dummy") == 0
                || ip("link", "add", interface, "type", "veth", "peer", "name", interface + "p") == 0 else {
            throw XCTSkip("no dummy or veth interface can be made here (no such module, or no iproute2)")
        }
        defer { _ = try? ip("link", "del", interface) }
        let changes = Box(0)
        let monitor = NetworkChangeMonitor(logger: Logger(label: "test")) { changes.update { $0 += 1 } }
        try monitor.start()
        defer { XCTAssertTrue(monitor.stop(waitingUpTo: 5), "wd-netlink ended") }
        XCTAssertEqual(changes.value, 0)
        XCTAssertEqual(try ip("addr", "add", "198.18.255.77/32", "dev", interface), 0)
        let deadline = Date().addingTimeInterval(10)
        while changes.value == 0 && Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThanOrEqual(changes.value, 1, "the address added was told")
    }
}
