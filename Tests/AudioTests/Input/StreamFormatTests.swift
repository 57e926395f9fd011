import XCTest
@testable import Audio

final class StreamFormatTests: XCTestCase {
    private let mp3Frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 600)
    private let adtsFrame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80] + [UInt8](repeating: 0, count: 600)

    func testByContentType() {
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/mpeg", url: "http://h/s", prefix: []), .mpeg)
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/aacp", url: "http://h/s", prefix: []), .unsupported("AAC"))
        XCTAssertEqual(StreamFormat.detect(contentType: "application/ogg", url: "http://h/s", prefix: []), .unsupported("Ogg"))
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/x-scpls", url: "http://h/s", prefix: []), .playlist(.pls))
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/x-mpegurl; charset=utf-8", url: "http://h/s", prefix: []), .playlist(.m3u))
    }

    func testContentBeatsAMisleadingType() {
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/mpeg", url: "http://h/s", prefix: adtsFrame), .unsupported("AAC"))
        XCTAssertEqual(StreamFormat.detect(contentType: "application/octet-stream", url: "http://h/s", prefix: mp3Frame), .mpeg)
        XCTAssertEqual(StreamFormat.detect(contentType: "text/plain", url: "http://h/s", prefix: Array("[playlist]\nFile1=x".utf8)), .playlist(.pls))
        XCTAssertEqual(StreamFormat.detect(contentType: "audio/mpeg", url: "http://h/s", prefix: Array("OggS\0\0\0\0".utf8)), .unsupported("Ogg"))
    }

    func testHLSIsRecognised() {
        let hls = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n"
        XCTAssertEqual(StreamFormat.detect(contentType: "application/vnd.apple.mpegurl", url: "http://h/x.m3u8", prefix: Array(hls.utf8)), .hls)
        XCTAssertEqual(StreamFormat.detect(contentType: nil, url: "http://h/x.m3u8", prefix: Array("#EXTM3U\nhttp://h/live\n".utf8)), .playlist(.m3u))
    }

    func testByExtensionAndHTML() {
        XCTAssertEqual(StreamFormat.detect(contentType: "application/octet-stream", url: "http://h/radio.pls?x=1", prefix: []), .playlist(.pls))
        XCTAssertEqual(StreamFormat.detect(contentType: "text/html", url: "http://h/", prefix: Array("<!DOCTYPE html><html>".utf8)), .unsupported("HTML page"))
    }
}
