import CurlSupport
import Glibc
import XCTest

/// Addresses and ranges as text (the configuration's `allowed_addresses`) and as the kernel's socket
/// addresses (what libcurl connects to): what parses, what does not, and what a range holds.
final class IPNetworkTests: XCTestCase {
    func testAddressesAndRangesParse() throws {
        XCTAssertEqual(IPNetwork("10.0.0.0/8")?.description, "10.0.0.0/8")
        XCTAssertEqual(IPNetwork("10.1.2.3/8")?.description, "10.0.0.0/8", "the bits past the prefix are cleared")
        XCTAssertEqual(IPNetwork("127.0.0.1")?.description, "127.0.0.1/32")
        XCTAssertEqual(IPNetwork("::1")?.description, "::1/128")
        XCTAssertEqual(IPNetwork("fc00::/7")?.description, "fc00::/7")
        XCTAssertEqual(IPNetwork("fe80::1:2:3:4/64")?.description, "fe80::/64")
        XCTAssertEqual(IPNetwork("0.0.0.0/0")?.description, "0.0.0.0/0")
        XCTAssertEqual(IPNetwork("::/0")?.description, "::/0")
        XCTAssertEqual(IPAddress("::ffff:192.168.1.1")?.description, "::ffff:192.168.1.1")
        XCTAssertEqual(IPAddress("2001:DB8::1")?.description, "2001:db8::1")
    }

    func testAnythingElseDoesNotParse() {
        for text in ["", " ", "10.0.0.0/33", "::/129", "10.0.0.0/", "/8", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8",
                     "10.0.0.0/ 8", "10.0.0.0/0x8", "10.0.0.0/٨", "1.2.3", "127.1", "0x7f.0.0.1", "010.0.0.1", "1.2.3.4.5",
                     "256.0.0.1", " 127.0.0.1", "127.0.0.1 ", "127.0.0.1\0", "127.0.0.1\u{0}.evil", "fe80::1%eth0", "::1::2",
                     "1:2:3:4:5:6:7:8:9", "localhost", "http://127.0.0.1/", "１２７.0.0.1", String(repeating: "1", count: 100_000)] {
            XCTAssertNil(IPNetwork(text), text.debugDescription)
        }
    }

    func testARangeHoldsItsAddressesOfItsFamilyOnly() throws {
        let range = try XCTUnwrap(IPNetwork("172.16.0.0/12"))
        XCTAssertTrue(range.contains(try XCTUnwrap(IPAddress("172.16.0.0"))))
        XCTAssertTrue(range.contains(try XCTUnwrap(IPAddress("172.31.255.255"))))
        XCTAssertFalse(range.contains(try XCTUnwrap(IPAddress("172.32.0.0"))))
        XCTAssertFalse(range.contains(try XCTUnwrap(IPAddress("::ffff:172.16.0.1"))), "another family")
        let v6 = try XCTUnwrap(IPNetwork("2001:db8::/33"))
        XCTAssertTrue(v6.contains(try XCTUnwrap(IPAddress("2001:db8:7fff:ffff::1"))))
        XCTAssertFalse(v6.contains(try XCTUnwrap(IPAddress("2001:db8:8000::"))))
        let everything = try XCTUnwrap(IPNetwork("0.0.0.0/0"))
        XCTAssertTrue(everything.contains(try XCTUnwrap(IPAddress("255.255.255.255"))))
        let wide = try XCTUnwrap(IPNetwork("fe80::/10"))
        XCTAssertTrue(wide.contains(try XCTUnwrap(IPAddress("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"))))
        XCTAssertFalse(wide.contains(try XCTUnwrap(IPAddress("fec0::"))))
    }

    /// The socket addresses libcurl hands to its open-socket callback, and ones too short or of another family.
    func testSocketAddressesAreReadByFamilyAndLength() {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_addr.s_addr = inet_addr("192.168.1.20")
        withUnsafeBytes(of: &v4) { bytes in
            XCTAssertEqual(IPAddress(socketAddress: bytes)?.description, "192.168.1.20")
            XCTAssertNil(IPAddress(socketAddress: UnsafeRawBufferPointer(rebasing: bytes[0..<4])))
        }
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        _ = inet_pton(AF_INET6, "fe80::1234", &v6.sin6_addr)
        v6.sin6_scope_id = 2
        withUnsafeBytes(of: &v6) { bytes in
            XCTAssertEqual(IPAddress(socketAddress: bytes)?.description, "fe80::1234")
            XCTAssertNil(IPAddress(socketAddress: UnsafeRawBufferPointer(rebasing: bytes[0..<20])))
        }
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        withUnsafeBytes(of: &unix) { XCTAssertNil(IPAddress(socketAddress: $0)) }
        XCTAssertNil(IPAddress(socketAddress: UnsafeRawBufferPointer(start: nil, count: 0)))
    }
}
