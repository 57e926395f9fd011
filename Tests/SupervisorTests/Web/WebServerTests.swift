import CurlSupport
import Foundation
import Logging
import WavedialControl
import WavedialCore
import XCTest

@testable import Supervisor

/// The web server on a loopback port over a backend that answers like the radio: keep-alive and
/// pipelining, `Connection: close`, HEAD without a body, a malformed request answered and the
/// connection closed, a request that never ends cut off, clients outside the allow list closed.
final class WebServerTests: XCTestCase {
    private var server: WebServer?

    override func tearDown() {
        server?.stop(waitingUpTo: 5)
    }

    private func start(allow: [String] = ["127.0.0.0/8"], requestTimeout: Double = 10) throws -> Int {
        let backend = WebBackend(
            perform: { command in command == .lcd ? ControlResponse(ok: true, lines: ["LCD"]) : ControlResponse(ok: true) },
            dialListing: { DialListing(band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 90, dial: [], favorites: []) },
            search: { _ in [] })
        let server = WebServer(host: "127.0.0.1", port: 0,
                               routes: WebRoutes(backend: backend, authentication: WebAuthentication(password: "")),
                               allowList: ClientAllowList(allow.compactMap { IPNetwork($0) }),
                               logger: Logger(label: "test.web"), requestTimeout: requestTimeout)
        try server.start()
        self.server = server
        return try XCTUnwrap(server.localPort)
    }

    /// Everything the server sends until it closes (or 15 s pass).
    private func exchange(_ text: String, port: Int) throws -> String {
        try loopbackHTTPExchange(text, port: port)
    }

    func testPipelinedRequestsAreAnsweredInOrderUntilConnectionClose() throws {
        let port = try start()
        let answer = try exchange("GET /api/lcd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            + "POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
            + "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
        let heads = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        XCTAssertEqual(heads, ["200", "200", "200"], "nothing after Connection: close: \(answer)")
        XCTAssertTrue(answer.contains(#"{"lines":["LCD"],"ok":true}"#))
        XCTAssertFalse(answer.contains("<!doctype html>"), "HEAD has no body")
        XCTAssertTrue(answer.contains("Connection: close"))
    }

    func testAMalformedRequestIsAnsweredAndTheConnectionClosed() throws {
        let port = try start()
        let answer = try exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: a\rb\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), answer)
        XCTAssertEqual(answer.components(separatedBy: "HTTP/1.1 ").count, 2, "one answer, then closed")
    }

    func testARequestThatNeverEndsIsCutOff() throws {
        let port = try start(requestTimeout: 1)
        let answer = try exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", port: port)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408 "), answer)
    }

    func testClientsOutsideTheAllowListAreClosedUnanswered() throws {
        let port = try start(allow: ["192.168.0.0/16"])
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port), "")
    }

    /// One address may not take every place: past six connections at once one more is closed unanswered,
    /// and a place it frees is its again.
    func testOneAddressHasAtMostSixConnectionsAtOnce() throws {
        let port = try start()
        var held: [StreamSocket] = []
        for _ in 0..<WebServer.maximumClientsPerAddress { held.append(try StreamSocket.connect(host: "127.0.0.1", port: port)) }
        // The server has taken them all (a request on the last is answered) before the one too many comes.
        XCTAssertTrue(held.last!.write(Data("GET /api/lcd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)))
        XCTAssertTrue(held.last!.waitUntilReadable(before: .now() + 10))
        XCTAssertTrue(String(decoding: held.last!.read(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        let refused = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(refused.waitUntilReadable(before: .now() + 10))
        XCTAssertEqual(refused.read(), [], "closed without an answer")
        held.removeFirst().close()
        let served = try eventuallyServed(port: port)
        XCTAssertTrue(served.hasPrefix("HTTP/1.1 200"), served)
    }

    /// The answer to a request on a fresh connection once a place has been freed (the server notices the
    /// closed connection on its own thread).
    private func eventuallyServed(port: Int) throws -> String {
        var answer = ""
        for _ in 0..<50 {
            answer = try exchange("GET /api/lcd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
            if answer.hasPrefix("HTTP/1.1 200") { break }
            usleep(100_000)
        }
        return answer
    }
}
