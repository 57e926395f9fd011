import Audio
import XCTest

final class StreamResponseTests: XCTestCase {
    private func bitrate(_ header: String) -> Int? {
        StreamResponse(statusCode: 200, url: "http://x/", contentType: nil, headers: ["icy-br": header]).bitrate
    }

    func testTheAnnouncedBitrateIsReadAsServersSendIt() {
        XCTAssertEqual(bitrate("128"), 128)
        XCTAssertEqual(bitrate("128,128"), 128)
    }

    /// The player sizes its prebuffer from it (kbit/s × 125 bytes): a number beyond any audio stream's
    /// would overflow that and trap, so it counts as not announced.
    func testABitrateBeyondAnyStreamsIsNotABitrate() {
        for header in ["9223372036854775807", "73786976294838207", "100001", "0", "-128", "1e3", "nan"] {
            XCTAssertNil(bitrate(header), header)
        }
    }
}
