import XCTest

@testable import Supervisor

/// The demo server's request parser against what any local program may send.
final class DemoRequestTests: XCTestCase {
    private func parse(_ text: String) -> Result<DemoRequest, DemoRequest.Refusal> {
        DemoRequest.parse(Array(text.utf8))
    }

    func testAPlayersRequestGivesThePathAndTheMetadataWish() {
        let head = "GET /demo/volna?x=1 HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nUser-Agent: wavedial/1\r\nicy-metadata:  1 \r\n\r\n"
        XCTAssertEqual(parse(head), .success(DemoRequest(path: "/demo/volna", wantsMetadata: true)))
        XCTAssertEqual(parse("GET / HTTP/1.0\r\n\r\n"), .success(DemoRequest(path: "/", wantsMetadata: false)))
        XCTAssertEqual(parse("GET /a HTTP/1.0\r\nIcy-MetaData: 0\r\n\r\n"), .success(DemoRequest(path: "/a", wantsMetadata: false)))
    }

    func testEverythingElseIsRefusedWithItsStatus() {
        XCTAssertEqual(parse("POST /demo/volna HTTP/1.1\r\n\r\n"), .failure(.methodNotAllowed))
        for bad in ["GET /demo HTTP/2\r\n\r\n", "GET demo HTTP/1.1\r\n\r\n", "GET  /demo HTTP/1.1\r\n\r\n", "\r\n\r\n",
                    "GET /demo HTTP/1.1\r\nno colon\r\n\r\n", "GET /demo HTTP/1.1\r\n: empty name\r\n\r\n",
                    "GET /demo HTTP/1.1\r\nBad Name: x\r\n\r\n", "GET /d\u{1B}[2J HTTP/1.1\r\n\r\n", "GET /d\0 HTTP/1.1\r\n\r\n",
                    "GET /dé HTTP/1.1\r\n\r\n", "get /demo HTTP/1.1\r\n\r\n", "GET /demo HTTP/1.1\r\n",
                    "GET /demo/\rvolna HTTP/1.1\r\n\r\n", "GET /demo HTTP/1.1\r\nA: b\nc\r\n\r\n"] {
            XCTAssertEqual(parse(bad), .failure(.badRequest), bad.debugDescription)
        }
        // Bytes after the blank line are not part of a head.
        XCTAssertEqual(parse("GET / HTTP/1.0\r\n\r\nX"), .failure(.badRequest))
        let long = "GET /" + String(repeating: "a", count: DemoRequest.maximumHeadLength) + " HTTP/1.1\r\n\r\n"
        XCTAssertEqual(parse(long), .failure(.headTooLarge))
        let fields = "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: DemoRequest.maximumFields + 1) + "\r\n"
        XCTAssertEqual(parse(fields), .failure(.headTooLarge))
    }

    func testTheHeadEndsAtItsFirstBlankLine() {
        XCTAssertNil(DemoRequest.headLength(in: Array("GET / HTTP/1.1\r\nA: b\r\n".utf8)))
        XCTAssertEqual(DemoRequest.headLength(in: Array("GET / HTTP/1.1\r\n\r\nGET".utf8)), 18)
        XCTAssertNil(DemoRequest.headLength(in: []))
    }
}
