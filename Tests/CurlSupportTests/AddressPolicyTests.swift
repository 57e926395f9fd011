import CurlSupport
import XCTest

/// The address policy over the ranges, pure: which addresses a catalog station, a URL the user typed
/// and a configured server may connect to, the IPv6 forms that carry an IPv4 address, the
/// configuration's exceptions and this machine's own addresses.
final class AddressPolicyTests: XCTestCase {
    private func kind(_ policy: AddressPolicy, _ text: String, own: [String] = [],
                      file: StaticString = #filePath, line: UInt = #line) -> AddressPolicy.Kinds? {
        guard let address = IPAddress(text) else {
            XCTFail("\(text) does not parse", file: file, line: line)
            return nil
        }
        return policy.refusal(of: address, ownAddresses: own.compactMap(IPAddress.init))?.kind
    }

    private func assertAllowed(_ policy: AddressPolicy, _ addresses: [String], file: StaticString = #filePath, line: UInt = #line) {
        for address in addresses {
            XCTAssertNil(kind(policy, address, file: file, line: line), "\(address) for \(policy.subject)", file: file, line: line)
        }
    }

    private func assertRefused(_ policy: AddressPolicy, _ cases: [(String, AddressPolicy.Kinds)],
                               file: StaticString = #filePath, line: UInt = #line) {
        for (address, expected) in cases {
            XCTAssertEqual(kind(policy, address, file: file, line: line), expected, "\(address) for \(policy.subject)",
                           file: file, line: line)
        }
    }

    /// Refused for every policy: nothing a station or a person means lives there.
    private let nowhere: [(String, AddressPolicy.Kinds)] = [
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal),
        ("224.0.0.251", .multicast), ("239.255.255.250", .multicast), ("ff02::fb", .multicast), ("ff0e::1", .multicast),
        ("255.255.255.255", .reserved), ("240.0.0.1", .reserved), ("100::1", .reserved),
        ("::ffff:169.254.169.254", .linkLocal), ("::ffff:224.0.0.1", .multicast), ("::ffff:0.0.0.0", .unspecified),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("2002:a9fe:a9fe::1", .linkLocal),
    ]

    private let loopback: [(String, AddressPolicy.Kinds)] = [
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("127.0.0.2", .loopback), ("::1", .loopback),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:0:127.0.0.1", .loopback), ("::127.0.0.1", .loopback),
        ("64:ff9b::7f00:1", .loopback), ("2002:7f00:1::1", .loopback),
    ]

    private let homeNetwork: [(String, AddressPolicy.Kinds)] = [
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork), ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork), ("192.168.0.0", .privateNetwork),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
        ("fc00::1", .privateNetwork), ("fd12:3456:789a::1", .privateNetwork), ("fec0::1", .privateNetwork),
        ("64:ff9b:1::a00:1", .privateNetwork),
        ("::ffff:192.168.1.1", .privateNetwork), ("::ffff:10.0.0.1", .privateNetwork), ("64:ff9b::c0a8:101", .privateNetwork),
        ("2002:c0a8:0101::1", .privateNetwork), ("::ffff:100.64.0.1", .sharedAddressSpace),
    ]

    private let publicAddresses = [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "11.0.0.0", "9.255.255.255", "172.15.255.255", "172.32.0.0",
        "192.167.255.255", "192.169.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.0",
        "169.253.255.255", "169.255.0.0", "223.255.255.255", "198.18.0.1",
        "2001:4860:4860::8888", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "fbff::1",
    ]

    func testACatalogStationReachesPublicAddressesOnly() {
        assertAllowed(.catalog, publicAddresses)
        assertRefused(.catalog, nowhere + loopback + homeNetwork)
    }

    func testAURLTheUserTypedReachesTheHomeNetworkButNeitherTheRadioNorLinkLocalNorMulticast() {
        assertAllowed(.userTyped, publicAddresses + homeNetwork.map(\.0))
        assertRefused(.userTyped, nowhere + loopback)
    }

    func testAConfiguredServerMayBeOnLoopbackOrTheHomeNetworkButNotLinkLocalOrMulticast() {
        assertAllowed(.configuredServer, publicAddresses + homeNetwork.map(\.0) + loopback.map(\.0))
        assertRefused(.configuredServer, nowhere)
    }

    /// The radio itself at its LAN address, an IPv6 one, in the mapped form, and its broadcast address.
    func testThisMachinesOwnAddressesAreRefusedToStationsAndTypedURLs() {
        let own = ["192.168.1.50", "192.168.1.255", "2001:db8::50", "203.0.113.7"]
        for policy in [AddressPolicy.catalog, .userTyped] {
            XCTAssertEqual(kind(policy, "203.0.113.7", own: own), .ownAddress, policy.subject)
            XCTAssertEqual(kind(policy, "2001:db8::50", own: own), .ownAddress, policy.subject)
            XCTAssertEqual(kind(policy, "::ffff:203.0.113.7", own: own), .ownAddress, policy.subject)
            XCTAssertNil(kind(policy, "203.0.113.8", own: own), policy.subject)
        }
        XCTAssertEqual(kind(.userTyped, "192.168.1.50", own: own), .ownAddress)
        XCTAssertEqual(kind(.userTyped, "192.168.1.255", own: own), .ownAddress)
        XCTAssertNil(kind(.userTyped, "192.168.1.51", own: own), "another machine of the LAN")
        XCTAssertNil(kind(.configuredServer, "192.168.1.50", own: own), "a mirror on this machine is the administrator's choice")
    }

    /// The configuration's exceptions allow exactly what they name, also in IPv4-mapped form.
    func testExceptionsAllowOnlyWhatTheyName() throws {
        let policy = AddressPolicy.catalog.allowing([try XCTUnwrap(IPNetwork("127.0.0.2/32")), try XCTUnwrap(IPNetwork("10.1.0.0/16"))])
        assertAllowed(policy, ["127.0.0.2", "::ffff:127.0.0.2", "10.1.2.3", "8.8.8.8"])
        assertRefused(policy, [("127.0.0.1", .loopback), ("127.0.0.3", .loopback), ("10.2.0.1", .privateNetwork),
                               ("169.254.169.254", .linkLocal)])
        assertAllowed(AddressPolicy.userTyped.allowing(IPNetwork.loopback), ["127.0.0.1", "127.1.2.3", "::1"])
    }

    func testARefusalNamesTheAddressWhyAndForWhom() throws {
        let refusal = try XCTUnwrap(AddressPolicy.catalog.refusal(of: try XCTUnwrap(IPAddress("192.168.1.1"))))
        XCTAssertEqual(refusal.description, "address 192.168.1.1 (private network) not allowed for a catalog station")
        let typed = try XCTUnwrap(AddressPolicy.userTyped.refusal(of: try XCTUnwrap(IPAddress("fe80::1"))))
        XCTAssertEqual(typed.description, "address fe80::1 (link-local) not allowed for a URL you typed")
        let named = try XCTUnwrap(AddressPolicy.catalog.guarding("a discovered server").refusal(of: try XCTUnwrap(IPAddress("::1"))))
        XCTAssertEqual(named.description, "address ::1 (loopback) not allowed for a discovered server")
    }

    func testTheMachinesOwnAddressesAreRead() {
        let own = HostAddresses.current()
        XCTAssertTrue(own.contains(IPAddress(v4: 0x7F00_0001)), "lo's 127.0.0.1 among \(own)")
    }
}
