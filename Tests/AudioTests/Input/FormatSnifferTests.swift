import WavedialTestSupport
import XCTest
@testable import Audio

final class FormatSnifferTests: XCTestCase {
    /// Three MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each), entered mid-frame.
    private let mp3Frames: [UInt8] = [0x12, 0xFF, 0xE3, 0x00]
        + Array([[UInt8]]((0..<3).map { _ in [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413) }).joined())
    /// Three ADTS frames of 367 bytes, entered mid-frame.
    private let adtsFrames: [UInt8] = [0x00, 0xFF, 0xF1]
        + Array([[UInt8]]((0..<3).map { _ in [0xFF, 0xF1, 0x50, 0x80, 0x2D, 0xFF, 0xFC] + [UInt8](repeating: 0, count: 360) }).joined())

    func testByContentType() {
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: []), .audio(.mpeg))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/aacp", url: "http://h/s", prefix: []), .audio(.adts))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "application/ogg", url: "http://h/s", prefix: []), .audio(.ogg))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/x-scpls", url: "http://h/s", prefix: []), .playlist(.pls))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/x-mpegurl; charset=utf-8", url: "http://h/s", prefix: []), .playlist(.m3u))
    }

    func testContentBeatsAMisleadingType() {
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: adtsFrames), .audio(.adts))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "application/octet-stream", url: "http://h/s", prefix: mp3Frames), .audio(.mpeg))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "text/plain", url: "http://h/s", prefix: Array("[playlist]\nFile1=x".utf8)), .playlist(.pls))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: Array("OggS\0\0\0\0".utf8)), .audio(.ogg))
    }

    func testAStrayFrameSyncInsideMPEGDataIsNotTakenForAAC() throws {
        // Live bursts start anywhere; a 0xFFF pattern inside frame data must not decide the format.
        let tone = Array(try Data(contentsOf: TestMedia.tone(seconds: 5)))
        for start in stride(from: 1, to: 20_000, by: 997) {
            let prefix = Array(tone[start..<(start + FormatSniffer.sniffLength)])
            XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: prefix), .audio(.mpeg), "start \(start)")
            XCTAssertEqual(FormatSniffer.sniff(contentType: nil, url: "http://h/s", prefix: prefix), .audio(.mpeg), "start \(start)")
        }
    }

    func testHLSIsRecognised() {
        let hls = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n"
        XCTAssertEqual(FormatSniffer.sniff(contentType: "application/vnd.apple.mpegurl", url: "http://h/x.m3u8", prefix: Array(hls.utf8)), .hls)
        XCTAssertEqual(FormatSniffer.sniff(contentType: nil, url: "http://h/x.m3u8", prefix: Array("#EXTM3U\nhttp://h/live\n".utf8)), .playlist(.m3u))
    }

    func testByExtensionAndHTML() {
        XCTAssertEqual(FormatSniffer.sniff(contentType: "application/octet-stream", url: "http://h/radio.pls?x=1", prefix: []), .playlist(.pls))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "text/html", url: "http://h/", prefix: Array("<!DOCTYPE html><html>".utf8)), .unsupported("HTML page"))
    }

    func testContainersAndTaggedSegments() {
        // HLS packed audio: an ID3 tag (timestamp PRIV frame), then ADTS frames.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0x41, count: 20)
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: tag + adtsFrames), .audio(.adts))
        XCTAssertEqual(FormatSniffer.sniff(contentType: nil, url: "http://h/s", prefix: tag + mp3Frames), .audio(.mpeg))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/mpeg", url: "http://h/s", prefix: Array("fLaC\0\0\0\"".utf8)), .audio(.flac))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/aac", url: "http://h/s", prefix: []), .audio(.adts))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/x-flac", url: "http://h/s", prefix: []), .audio(.flac))
        XCTAssertEqual(FormatSniffer.sniff(contentType: "application/octet-stream", url: "http://h/s",
                                           prefix: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]), .unsupported("WMA"))
        XCTAssertEqual(FormatSniffer.sniff(contentType: nil, url: "http://h/s", prefix: [0, 0, 0, 0x20] + Array("ftypisom".utf8)),
                       .unsupported("MP4"))
    }

    func testATypeThatNamesAPlaylistLosesToAudioBytes() {
        XCTAssertEqual(FormatSniffer.sniff(contentType: "audio/x-mpegurl", url: "http://h/s.m3u", prefix: mp3Frames), .audio(.mpeg))
    }
}
