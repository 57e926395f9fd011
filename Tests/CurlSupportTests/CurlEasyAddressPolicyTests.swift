import CurlSupport
import WavedialTestSupport
import XCTest

/// The address policy on real libcurl transfers against loopback servers: a refused address is never
/// connected to (the server counts no connection), whether the URL names it, a name resolves to it or
/// a redirect leads there, and the error says which address and why. A server on 127.0.0.2 stands for
/// an allowed public one (the policy's exception), one on 127.0.0.1 for the forbidden house.
final class CurlEasyAddressPolicyTests: XCTestCase {
    private var servers: [ScriptedHTTPServer] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
    }

    private func server(_ host: String) throws -> ScriptedHTTPServer {
        let server = try ScriptedHTTPServer(host: host)
        server.route("/stream", .content("audio", type: "audio/mpeg"))
        servers.append(server)
        return server
    }

    /// GETs `url` under `policy`, following redirects. - Returns: the error, nil when it succeeded.
    private func get(_ url: String, policy: AddressPolicy?) throws -> CurlError? {
        let easy = try CurlEasy()
        easy.setAddressPolicy(policy)
        try easy.set(.url(url))
        try easy.set(.followRedirects(maximum: 5))
        try easy.set(.connectTimeout(seconds: 5))
        try easy.set(.failOnHTTPError)
        do {
            try easy.perform { _ in true }
            return nil
        } catch let error as CurlError {
            return error
        }
    }

    func testACatalogStationOnLoopbackIsRefusedBeforeAnyConnection() throws {
        let house = try server("127.0.0.1")
        let error = try XCTUnwrap(try get(house.url("/stream"), policy: .catalog), "the transfer must fail")
        XCTAssertTrue(error.isAddressRefused, "\(error)")
        XCTAssertEqual(error.detail, "address 127.0.0.1 (loopback) not allowed for a catalog station")
        XCTAssertEqual(house.connections, 0, "the server was never reached")

        XCTAssertNil(try get(house.url("/stream"), policy: nil), "without a policy the same transfer succeeds")
        XCTAssertEqual(house.connections, 1)
    }

    /// A name is judged by the addresses it resolves to: `localhost` is 127.0.0.1 (and ::1).
    func testANameIsJudgedByTheAddressItResolvesTo() throws {
        let house = try server("127.0.0.1")
        let error = try XCTUnwrap(try get("http://localhost:\(house.port)/stream", policy: .userTyped))
        XCTAssertTrue(error.isAddressRefused, "\(error)")
        XCTAssertTrue(error.detail.hasSuffix("(loopback) not allowed for a URL you typed"), error.detail)
        XCTAssertEqual(house.connections, 0)
    }

    /// The allowed server (127.0.0.2, the policy's one exception) answers with a redirect into the house:
    /// the redirect is followed up to the connect, which is refused.
    func testARedirectFromAnAllowedServerToAForbiddenOneIsRefusedAtConnect() throws {
        let allowed = try server("127.0.0.2")
        let house = try server("127.0.0.1")
        allowed.route("/station", .redirect(to: house.url("/stream")))
        let policy = AddressPolicy.catalog.allowing([try XCTUnwrap(IPNetwork("127.0.0.2/32"))])

        XCTAssertNil(try get(allowed.url("/stream"), policy: policy), "the exception is reached")
        let error = try XCTUnwrap(try get(allowed.url("/station"), policy: policy))
        XCTAssertEqual(error.detail, "address 127.0.0.1 (loopback) not allowed for a catalog station")
        XCTAssertEqual(allowed.requestedPaths, ["/stream", "/station"])
        XCTAssertEqual(house.connections, 0, "the redirect's target was never reached")
    }
}
