import CCurl
import XCTest
@testable import CurlSupport

/// The typed face of libcurl: the `CURLcode`s the radio tells apart, and the options it sets.
final class CurlTypesTests: XCTestCase {
    func testEachCodeIsTheKindTheRadioActsOn() {
        let kinds: [(CURLcode, CurlError.Kind)] = [
            (CURLE_HTTP_RETURNED_ERROR, .httpError), (CURLE_COULDNT_RESOLVE_HOST, .hostNotResolved),
            (CURLE_COULDNT_RESOLVE_PROXY, .proxyNotResolved), (CURLE_COULDNT_CONNECT, .connectFailed),
            (CURLE_OPERATION_TIMEDOUT, .timedOut), (CURLE_TOO_MANY_REDIRECTS, .tooManyRedirects),
            (CURLE_UNSUPPORTED_PROTOCOL, .unsupportedProtocol), (CURLE_URL_MALFORMAT, .malformedURL),
            (CURLE_PEER_FAILED_VERIFICATION, .tlsFailed), (CURLE_SSL_CONNECT_ERROR, .tlsFailed),
            (CURLE_WEIRD_SERVER_REPLY, .badServerReply), (CURLE_GOT_NOTHING, .badServerReply),
            (CURLE_ABORTED_BY_CALLBACK, .aborted), (CURLE_WRITE_ERROR, .aborted),
            (CURLE_RECV_ERROR, .other), (CURLE_PARTIAL_FILE, .other), (CURLE_SEND_ERROR, .other),
        ]
        for (code, kind) in kinds {
            XCTAssertEqual(CurlError(code: code, function: "curl_easy_perform").kind, kind, "\(code)")
        }
        // A failure made from a kind is of that kind, with curl's own words when none are given.
        for kind in CurlError.Kind.allCases {
            let error = CurlError(kind: kind, function: "test")
            XCTAssertEqual(error.kind, kind)
            XCTAssertFalse(error.detail.isEmpty)
        }
        XCTAssertTrue(CurlError(kind: .proxyNotResolved, function: "test").isResolveFailure)
        XCTAssertTrue(CurlError(kind: .aborted, function: "test").isAborted)
    }

    func testTimeoutsAreWholeMillisecondsNeverZeroNorUnbounded() {
        XCTAssertEqual(CurlOption.milliseconds(2.5), 2500)
        XCTAssertEqual(CurlOption.milliseconds(0), 1, "0 would be no limit at all")
        XCTAssertEqual(CurlOption.milliseconds(-3), 1)
        XCTAssertEqual(CurlOption.milliseconds(.nan), 1)
        XCTAssertEqual(CurlOption.milliseconds(.infinity), 86_400_000)
        XCTAssertEqual(CurlOption.milliseconds(1e300), 86_400_000)
    }

    func testEveryOptionIsOneLibcurlTakes() throws {
        let easy = try CurlEasy()
        let options: [CurlOption] = [
            .url("http://127.0.0.1/"), .userAgent("Wavedial/1.0"), .credentials("admin:secret"),
            .followRedirects(maximum: 5), .protocols([.http, .https], redirects: [.https]),
            .connectTimeout(seconds: 5), .timeout(seconds: 600), .minimumSpeed(bytesPerSecond: 1000, seconds: 20),
            .failOnHTTPError, .acceptAnyEncoding, .byteRange(first: 0, last: 1023), .tcpKeepAlive, .verifyTLSPeer,
        ]
        for option in options { XCTAssertNoThrow(try easy.set(option), "\(option)") }
        XCTAssertEqual(CurlOption.protocols([.http, .https], redirects: [.https]).settings.count, 2)
    }
}
