import WavedialTestSupport
import XCTest

@testable import RadioBrowser

final class ServerDiscoveryTests: XCTestCase {
    /// A DNS response for `_api._tcp.radio-browser.info` SRV with two answers, the second
    /// target compressed as a pointer back to the question's domain.
    private func srvResponse() -> [UInt8] {
        func name(_ labels: [String]) -> [UInt8] {
            labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
        }
        var message: [UInt8] = [0x12, 0x34, 0x81, 0x80, 0, 1, 0, 2, 0, 0, 0, 0]
        let questionOffset = message.count
        message += name(["_api", "_tcp", "radio-browser", "info"]) + [0, 33, 0, 1]
        let domainOffset = questionOffset + 1 + 4 + 1 + 4  // "radio-browser.info" inside the question
        func answer(priority: UInt16, weight: UInt16, port: UInt16, target: [UInt8]) -> [UInt8] {
            let data = [UInt8(priority >> 8), UInt8(priority & 0xff), UInt8(weight >> 8), UInt8(weight & 0xff),
                        UInt8(port >> 8), UInt8(port & 0xff)] + target
            return [0xC0, UInt8(questionOffset), 0, 33, 0, 1, 0, 0, 0x0e, 0x10, UInt8(data.count >> 8), UInt8(data.count & 0xff)] + data
        }
        message += answer(priority: 1, weight: 1, port: 443, target: name(["de1", "api", "radio-browser", "info"]))
        // In typed parts: as one sum, Swift 6.0's type checker gives up on it.
        let at1: [UInt8] = [3] + Array("at1".utf8)
        let api: [UInt8] = [3] + Array("api".utf8)
        let pointer: [UInt8] = [0xC0, UInt8(domainOffset)]
        message += answer(priority: 1, weight: 1, port: 443, target: at1 + api + pointer)
        return message
    }

    func testParsesSRVAnswersWithCompressedNames() {
        XCTAssertEqual(SRVRecord.parse(srvResponse()), [
            SRVRecord(priority: 1, weight: 1, port: 443, target: "de1.api.radio-browser.info"),
            SRVRecord(priority: 1, weight: 1, port: 443, target: "at1.api.radio-browser.info"),
        ])
    }

    func testMalformedResponsesGiveNoRecords() {
        XCTAssertEqual(SRVRecord.parse([]), [])
        XCTAssertEqual(SRVRecord.parse(Array(srvResponse().prefix(40))), [])
        XCTAssertEqual(SRVRecord.parse([UInt8](repeating: 0xff, count: 64)), [])
    }

    func testTheFallbackNamesAddressesByReverseLookup() {
        // The A-record fallback on loopback: getaddrinfo, then getnameinfo with NI_NAMEREQD.
        let names = ServerDiscovery.reverseNamedAddresses(of: "localhost")
        XCTAssertFalse(names.isEmpty)
        XCTAssertTrue(names.allSatisfy { !$0.isEmpty && $0.first?.isNumber == false }, "names, not addresses: \(names)")
        XCTAssertEqual(ServerDiscovery.reverseNamedAddresses(of: "no-such-host.invalid"), [])
    }

    func testBaseURLsAreDistinctAndShuffled() {
        var generator = SeededRandom(seed: 3)
        let urls = ServerDiscovery.baseURLs(
            for: ["de1.api.radio-browser.info.", "DE1.api.radio-browser.info", "at1.api.radio-browser.info", "nl1.api.radio-browser.info", ""],
            using: &generator)
        XCTAssertEqual(Set(urls), ["https://de1.api.radio-browser.info", "https://at1.api.radio-browser.info",
                                   "https://nl1.api.radio-browser.info"])
        XCTAssertEqual(urls.count, 3)
        var orders = Set<[String]>()
        for seed in 0..<20 {
            var generator = SeededRandom(seed: UInt64(seed))
            orders.insert(ServerDiscovery.baseURLs(for: ["a", "b", "c"], using: &generator))
        }
        XCTAssertGreaterThan(orders.count, 1, "the order varies, spreading radios over the servers")
    }

    /// DNS may carry any byte in a name: what is not a plain host name would make another URL (a user,
    /// a port, a path) and is left out.
    func testOnlyPlainHostNamesBecomeServers() {
        var generator = SeededRandom(seed: 1)
        let urls = ServerDiscovery.baseURLs(
            for: ["evil.example@127.0.0.1", "127.0.0.1:8080", "a.example/path?x=", "a..example", ".example", "-a.example",
                  "a b.example", "a\u{0}.example", "ä.example", "[::1]", String(repeating: "a", count: 64) + ".example",
                  String(repeating: "a.", count: 130) + "example", "ok-1.api.radio-browser.info"],
            using: &generator)
        XCTAssertEqual(urls, ["https://ok-1.api.radio-browser.info"])
    }
}
