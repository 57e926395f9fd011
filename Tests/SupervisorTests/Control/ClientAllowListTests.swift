import CurlSupport
import XCTest

@testable import Supervisor

/// Which clients the MPD server and the web page answer: the configured networks, IPv4 clients of a
/// dual-stack listener judged as IPv4, an unknown address never.
final class ClientAllowListTests: XCTestCase {
    private func address(_ text: String) -> IPAddress? { IPAddress(text) }

    func testAdmitsOnlyTheListedNetworks() {
        let list = ClientAllowList(networks: ["127.0.0.0/8", "192.168.1.0/24", "fe80::/10"].compactMap { IPNetwork($0) })
        XCTAssertTrue(list.admits(address("127.0.0.1")))
        XCTAssertTrue(list.admits(address("192.168.1.77")))
        XCTAssertTrue(list.admits(address("fe80::1")))
        XCTAssertFalse(list.admits(address("192.168.2.1")))
        XCTAssertFalse(list.admits(address("8.8.8.8")))
        XCTAssertFalse(list.admits(address("::1")))
        XCTAssertFalse(list.admits(nil))
        XCTAssertFalse(ClientAllowList(networks: []).admits(address("127.0.0.1")))
    }

    func testJudgesIPv4MappedClientsAsTheirIPv4Address() {
        let list = ClientAllowList(networks: ["192.168.0.0/16"].compactMap { IPNetwork($0) })
        XCTAssertTrue(list.admits(address("::ffff:192.168.4.5")))
        XCTAssertFalse(list.admits(address("::ffff:8.8.8.8")))
        // 6to4 and NAT64 name other hosts than the client: not mapped.
        XCTAssertFalse(list.admits(address("2002:c0a8:0405::1")))
        XCTAssertFalse(list.admits(address("64:ff9b::c0a8:405")))
    }
}
