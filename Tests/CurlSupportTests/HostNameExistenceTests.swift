import CurlSupport
import Glibc
import XCTest

/// Only an NXDOMAIN (or a name RFC 6761 reserves as never existing) says a name does not exist; a
/// resolver that failed, did not answer or was not reached says nothing about it.
final class HostNameExistenceTests: XCTestCase {
    func testOnlyHostNotFoundMeansTheNameDoesNotExist() {
        XCTAssertEqual(HostNameExistence.judge(host: "radio.example", resolverStatus: HOST_NOT_FOUND), .nonexistent)
        for status in [TRY_AGAIN, NO_RECOVERY, NO_DATA, NETDB_INTERNAL, 99] {
            XCTAssertEqual(HostNameExistence.judge(host: "radio.example", resolverStatus: Int32(status)), .unknown, "\(status)")
        }
        XCTAssertEqual(HostNameExistence.judge(host: "radio.example", resolverStatus: nil), .unknown, "it resolved after all")
    }

    func testInvalidNamesNeverExistAndAddressesAndLocalNamesAreNotTheDNSs() {
        for name in ["x.invalid", "A.B.INVALID", "invalid", "x.invalid."] {
            XCTAssertEqual(HostNameExistence.judge(host: name, resolverStatus: TRY_AGAIN), .nonexistent, name)
        }
        // An address has nothing to resolve; a .local name is multicast DNS's, whose absence the DNS cannot tell.
        let notDNSNames = ["127.0.0.1", "::1", "[::1]", "printer.local", "", "a..b", String(repeating: "a", count: 254),
                           "x\u{0}.invalid"]
        for name in notDNSNames {
            XCTAssertEqual(HostNameExistence.judge(host: name, resolverStatus: HOST_NOT_FOUND), .unknown, name)
        }
    }

    func testTheResolverIsAskedAndAnInvalidNameNeedsNoNetwork() {
        XCTAssertEqual(HostNameExistence.lookUp("wavedial-test.invalid"), .nonexistent)
        XCTAssertEqual(HostNameExistence.lookUp("10.0.0.1"), .unknown)
        XCTAssertEqual(HostNameExistence.lookUp("printer.local"), .unknown)
    }
}
