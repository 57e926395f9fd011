import CurlSupport
import Threads
@testable import Supervisor
import WavedialConfig
import WavedialControl
import XCTest

/// Who the MPD server and the web page serve: the configured ranges, judged on the client's address.
final class ClientAllowListTests: XCTestCase {
    private let household = ClientAllowList(ListenerSettings.defaultAllow)

    func testTheHouseholdsRangesAreServedAndTheInternetIsNot() {
        for address in ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.1", "192.168.178.20", "fd12::1", "fe80::1"] {
            XCTAssertTrue(household.admits(IPAddress(address)), address)
        }
        for address in ["8.8.8.8", "172.32.0.1", "2001:db8::1", "100.64.0.1", "0.0.0.0", "::"] {
            XCTAssertFalse(household.admits(IPAddress(address)), address)
        }
        XCTAssertFalse(household.admits(nil as IPAddress?), "an unknown address is never served")
    }

    func testAnIPv4ClientOfADualStackListenerIsJudgedByItsIPv4Address() {
        XCTAssertTrue(household.admits(IPAddress("::ffff:192.168.1.5")))
        XCTAssertFalse(household.admits(IPAddress("::ffff:8.8.8.8")))
        // Forms whose IPv4 address anyone sending them can choose are not read as it.
        XCTAssertFalse(household.admits(IPAddress("2002:c0a8:0105::1")), "6to4")
        XCTAssertFalse(household.admits(IPAddress("64:ff9b::c0a8:0105")), "NAT64")
        XCTAssertFalse(household.admits(IPAddress("::192.168.1.5")), "IPv4-compatible")
    }

    func testARealClientFromOutsideTheListIsClosedOnAccept() throws {
        let onlyElsewhere = ClientAllowList([IPNetwork("192.0.2.0/24")!])
        let listener = try StreamSocket.listen(host: "127.0.0.1", port: 0)
        let served = OnceFlag()
        let server = ConnectionServer(name: "wd-test", maximumClients: 2, sendTimeoutSeconds: 1,
                                      admits: onlyElsewhere.admits, converse: { _ in served.set() })
        server.start(listening: listener)
        defer { server.stop(waitingUpTo: 2) }
        let client = try StreamSocket.connect(host: "127.0.0.1", port: try XCTUnwrap(listener.localPort))
        defer { client.close() }
        XCTAssertTrue(client.waitUntilReadable(before: .now() + 5))
        XCTAssertEqual(client.read(), [], "closed at once")
        XCTAssertFalse(served.isSet)
    }
}
