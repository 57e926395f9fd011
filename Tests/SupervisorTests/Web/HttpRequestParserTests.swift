import XCTest

@testable import Supervisor

/// The web server's request reader: whole requests out of bytes as they come, keep-alive and
/// pipelining, and hostile input refused with the status to answer, never a trap or unbounded memory.
final class HttpRequestParserTests: XCTestCase {
    private func parse(_ text: String, limits: HttpRequestParser.Limits = .init()) -> Result<HttpRequest, HttpRequestParser.Failure>? {
        var parser = HttpRequestParser(limits: limits)
        parser.feed(Array(text.utf8))
        return parser.next()
    }

    private func status(_ text: String, limits: HttpRequestParser.Limits = .init()) -> Int? {
        guard case .failure(let failure)? = parse(text, limits: limits) else { return nil }
        return failure.status
    }

    func testReadsARequestWithHeadersQueryAndBody() throws {
        let result = parse("POST /api/search?q=caf%C3%A9+jazz&x HTTP/1.1\r\nHost: radio.local:8080\r\nContent-Type:  application/json \r\n"
            + "Content-Length: 5\r\n\r\n{\"a\"}")
        let request = try XCTUnwrap(try result?.get())
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/api/search")
        XCTAssertEqual(request.parameter("q"), "café jazz")
        XCTAssertEqual(request.parameter("x"), "")
        XCTAssertEqual(request.header("content-type"), "application/json")
        XCTAssertEqual(request.header("host"), "radio.local:8080")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), "{\"a\"}")
        XCTAssertTrue(request.keepsAlive)
    }

    func testWaitsForTheWholeRequestAsBytesTrickleIn() throws {
        var parser = HttpRequestParser()
        let text = Array("POST /api/play HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".utf8)
        for byte in text.dropLast() {
            parser.feed([byte])
            XCTAssertNil(parser.next())
            XCTAssertTrue(parser.hasPartialRequest)
        }
        parser.feed([text.last!])
        XCTAssertEqual(try parser.next()?.get().body, Array("{}".utf8))
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testReadsPipelinedRequestsInOrderAndBareLineFeeds() throws {
        var parser = HttpRequestParser()
        parser.feed(Array("GET /a HTTP/1.1\nHost: a\n\n\r\nGET /b HTTP/1.0\r\nConnection: close\r\n\r\nGET /c HTTP/1.0\r\n\r\n".utf8))
        let first = try XCTUnwrap(try parser.next()?.get())
        let second = try XCTUnwrap(try parser.next()?.get())
        let third = try XCTUnwrap(try parser.next()?.get())
        XCTAssertEqual([first.path, second.path, third.path], ["/a", "/b", "/c"])
        XCTAssertFalse(second.keepsAlive)
        XCTAssertFalse(third.keepsAlive, "HTTP/1.0 closes unless it asks to keep alive")
        XCTAssertNil(parser.next())
    }

    func testConnectionCloseEndsKeepAlive() throws {
        let request = try XCTUnwrap(try parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive, Close\r\n\r\n")?.get())
        XCTAssertFalse(request.keepsAlive)
    }

    func testRefusesWhatIsTooLong() {
        var limits = HttpRequestParser.Limits()
        limits.requestLine = 64
        limits.head = 256
        limits.headerCount = 4
        limits.body = 10
        XCTAssertEqual(status("GET /\(String(repeating: "a", count: 100)) HTTP/1.1\r\n", limits: limits), 414)
        XCTAssertEqual(status("GET /\(String(repeating: "a", count: 100))", limits: limits), 414, "without a line end too")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "b", count: 300))", limits: limits), 431)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n", limits: limits), 431)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits), 413)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n"), 400)
    }

    func testRefusesMalformedAndSmugglingRequests() {
        let bad = [
            "get / HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /%zz?q=%zz HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /?q=%ff HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\na",
        ]
        for text in bad {
            XCTAssertEqual(status(text), 400, text.debugDescription)
        }
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), 501)
        XCTAssertEqual(status("GET / HTTP/2.0\r\nHost: a\r\n\r\n"), 505)
        XCTAssertEqual(status("GET / SPDY/1\r\nHost: a\r\n\r\n"), 400)
    }

    func testMemoryStaysBoundedWhateverIsSent() {
        var parser = HttpRequestParser()
        var failed = false
        for _ in 0..<100 where !failed {
            parser.feed([UInt8](repeating: UInt8(ascii: "A"), count: 4096))
            if case .failure? = parser.next() { failed = true }
        }
        XCTAssertTrue(failed, "an endless request line is refused")
    }
}
