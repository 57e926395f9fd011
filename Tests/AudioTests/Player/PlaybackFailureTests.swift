import CurlSupport
import Glibc
import XCTest
@testable import Audio

/// How a failed transfer is told to the listener, and which answers are definitive (the same on a retry
/// a second later, so a station that never played is given up after its second attempt).
final class PlaybackFailureTests: XCTestCase {
    private func failure(_ kind: CurlError.Kind, detail: String = "curl says", osErrno: Int32 = 0, responseCode: Int = 0,
                         host: (name: String, existence: HostNameExistence)? = nil) -> PlaybackFailure {
        PlaybackFailure(curlError: CurlError(kind: kind, function: "curl_easy_perform", detail: detail),
                        osErrno: osErrno, responseCode: responseCode, host: host)
    }

    func testClientErrorsAreDefinitiveButThoseThatMeanNotNow() {
        let definitive = [400: "HTTP 400 Bad Request", 401: "HTTP 401 Unauthorized", 404: "HTTP 404 Not Found",
                          405: "HTTP 405 Method Not Allowed", 407: "HTTP 407 Proxy Authentication Required",
                          410: "HTTP 410 Gone", 414: "HTTP 414 URI Too Long",
                          451: "HTTP 451 Unavailable For Legal Reasons", 499: "HTTP 499"]
        for (status, detail) in definitive {
            let answer = failure(.httpError, responseCode: status)
            XCTAssertEqual(answer, PlaybackFailure(.stationOffline, detail: detail, isDefinitive: true, httpStatus: status))
        }
        // 403: Icecast's full mount; 408, 409, 423, 425, 429: "not now"; 5xx: a server restarting or overloaded.
        for status in [403, 408, 409, 423, 425, 429, 500, 502, 503, 504, 599] {
            let answer = failure(.httpError, responseCode: status)
            XCTAssertFalse(answer.isDefinitive, "\(status)")
            XCTAssertEqual(answer.code, .stationOffline)
            XCTAssertEqual(answer.httpStatus, status)
        }
        XCTAssertEqual(failure(.httpError, responseCode: 503).detail, "HTTP 503 Service Unavailable")
        // A status no server sends is no number to show.
        for status in [0, -1, 200, 302, 600, Int.max] {
            XCTAssertEqual(failure(.httpError, responseCode: status),
                           PlaybackFailure(.stationOffline, detail: "HTTP error"))
        }
    }

    func testRedirectsAndURLsNoRetryWillFetchAreDefinitive() {
        XCTAssertEqual(failure(.tooManyRedirects, detail: "Maximum (5) redirects followed"),
                       PlaybackFailure(.stationOffline, detail: "too many redirects", isDefinitive: true))
        XCTAssertTrue(failure(.unsupportedProtocol).isDefinitive)
        XCTAssertTrue(failure(.malformedURL).isDefinitive)
    }

    func testANameTheDNSSaysDoesNotExistIsDefinitiveAndAnyOtherResolveFailureIsTheNetwork() {
        XCTAssertEqual(failure(.hostNotResolved, host: ("radio.example.invalid", .nonexistent)),
                       PlaybackFailure(.stationOffline, detail: "no such host: radio.example.invalid", isDefinitive: true))
        XCTAssertEqual(failure(.hostNotResolved, detail: "Could not resolve host: radio.example",
                               host: ("radio.example", .unknown)),
                       PlaybackFailure(.noNetwork, detail: "Could not resolve host: radio.example"))
        XCTAssertEqual(failure(.hostNotResolved).code, .noNetwork)
        XCTAssertFalse(failure(.proxyNotResolved, host: ("proxy.invalid", .nonexistent)).isDefinitive)
        // The host comes from a station's URL: no control characters reach a log or a terminal, and it is bounded.
        let name = "evil\u{1B}[2J\u{9B}x" + String(repeating: "a", count: 5000)
        let hostile = failure(.hostNotResolved, host: (name, .nonexistent))
        let controls = hostile.detail.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        XCTAssertTrue(controls.isEmpty, hostile.detail)
        XCTAssertLessThanOrEqual(hostile.detail.count, "no such host: ".count + 253)
    }

    func testTransientFailuresAreNotDefinitive() {
        XCTAssertEqual(failure(.connectFailed, osErrno: ECONNREFUSED).code, .stationOffline)
        XCTAssertFalse(failure(.connectFailed, osErrno: ECONNREFUSED).isDefinitive, "a server restarting refuses")
        XCTAssertEqual(failure(.connectFailed, osErrno: ENETUNREACH).code, .noNetwork)
        for kind: CurlError.Kind in [.timedOut, .tlsFailed, .badServerReply, .other] {
            XCTAssertFalse(failure(kind).isDefinitive, "\(kind)")
        }
    }

    func testTheRetryWordsNameTheHTTPStatusOrTheKindOfFailure() {
        XCTAssertEqual(ConnectionStage.resolving.description, "Resolving host…")
        XCTAssertEqual(ConnectionStage.connecting.description, "Connecting…")
        XCTAssertEqual(ConnectionStage.waitingForAudio.description, "Waiting for audio…")
        XCTAssertEqual(ConnectionStage.retrying(failure(.httpError, responseCode: 503)).description,
                       "Retrying (HTTP 503)…")
        XCTAssertEqual(ConnectionStage.retrying(failure(.timedOut)).description, "Retrying (Timed out)…")
        XCTAssertEqual(ConnectionStage.retrying(failure(.hostNotResolved)).description, "Retrying (No network)…")
    }
}
