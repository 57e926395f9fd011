import XCTest
@testable import Audio

/// A station's response headers, as libcurl hands them over line by line, with hostile values.
final class StreamResponseTests: XCTestCase {
    private func response(_ lines: [String]) -> StreamResponse {
        var headers = StreamResponseHeaders()
        for line in lines { headers.add(line: line) }
        return StreamResponse(statusCode: 200, url: "http://x/", contentType: headers.fields["content-type"],
                              headers: headers.fields)
    }

    private func metaint(_ value: String) -> Int? { response(["HTTP/1.0 200 OK", "icy-metaint: \(value)"]).metaint }

    func testMetaintIsAPlainPositiveNumberOrNone() {
        XCTAssertEqual(metaint("16000"), 16000)
        XCTAssertEqual(metaint("  8192  "), 8192)
        XCTAssertEqual(metaint("1"), 1, "legal: whether it plays is the connection's decision")
        for hostile in ["0", "-1", "-16000", "abc", "16000abc", "0x4000", "1e4", "", "+-1", "١٢٣",
                        "99999999999999999999", "9223372036854775808", String(repeating: "9", count: 5000)] {
            XCTAssertNil(metaint(hostile), hostile)
        }
    }

    func testBitrateIsBoundedSoNothingOverflowsSizingTheBuffer() {
        XCTAssertEqual(response(["icy-br: 128"]).bitrate, 128)
        XCTAssertEqual(response(["icy-br: 128,128"]).bitrate, 128)
        for hostile in ["9223372036854775807", "99999999999999999999", "-128", "0", "x", "4000000"] {
            XCTAssertNil(response(["icy-br: \(hostile)"]).bitrate, hostile)
        }
    }

    func testOnlyTheFinalResponseCountsAndFieldsAreBounded() {
        let redirected = response(["HTTP/1.1 302 Found", "Location: /b", "icy-metaint: 100",
                                   "HTTP/1.1 200 OK", "Content-Type: audio/mpeg", "ICY-Name: Final FM"])
        XCTAssertNil(redirected.metaint)
        XCTAssertEqual(redirected.contentType, "audio/mpeg")
        XCTAssertEqual(redirected.name, "Final FM")

        var headers = StreamResponseHeaders()
        headers.add(line: "ICY 200 OK")
        for index in 0..<10_000 { headers.add(line: "x-junk-\(index): \(index)") }
        headers.add(line: "icy-name: " + String(repeating: "n", count: 200_000))
        headers.add(line: String(repeating: "k", count: 200_000) + ": v")
        headers.add(line: "no colon at all")
        XCTAssertLessThanOrEqual(headers.fields.count, StreamResponseHeaders.maximumFields)
        XCTAssertTrue(headers.fields.values.allSatisfy { $0.unicodeScalars.count <= StreamResponseHeaders.maximumValueLength })
        XCTAssertTrue(headers.fields.keys.allSatisfy { $0.unicodeScalars.count <= StreamResponseHeaders.maximumNameLength })
    }
}
