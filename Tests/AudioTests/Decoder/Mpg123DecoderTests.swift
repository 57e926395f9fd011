import WavedialTestSupport
import XCTest
@testable import Audio

final class Mpg123DecoderTests: XCTestCase {
    /// Feeds `bytes` in network-sized chunks; returns the formats announced and the frames decoded in each.
    private func decode(_ bytes: [UInt8]) throws -> [(format: PCMFormat, frames: Int)] {
        let decoder = try Mpg123Decoder()
        var output = [UInt8](repeating: 0, count: 32768)
        var segments: [(format: PCMFormat, frames: Int)] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 1500)
            try bytes[offset..<end].withUnsafeBytes { try decoder.feed($0) }
            offset = end
            loop: while true {
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore:
                    break loop
                case .newFormat(let format):
                    segments.append((format, 0))
                case .title(let title):
                    XCTFail("MPEG audio has no in-band title: \(title)")
                case .pcm(let count):
                    guard let last = segments.indices.last else { return segments }
                    segments[last].frames += count / segments[last].format.bytesPerFrame
                case .title:
                    continue
                }
            }
        }
        return segments
    }

    private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    func testDecodesToneToSigned16AtItsRate() throws {
        let segments = try decode(try bytes(TestMedia.tone(seconds: 5)))
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(Double(segments[0].frames) / 44100, 5, accuracy: 0.1)
    }

    func testFollowsSampleRateAndChannelChanges() throws {
        let stereo = try bytes(TestMedia.tone(seconds: 2))
        let mono = try bytes(TestMedia.tone(frequency: 880, sampleRate: 22050, channels: 1, seconds: 2, kbps: 64))
        let formats = try decode(stereo + mono + stereo).map(\.format)
        XCTAssertEqual(formats, [PCMFormat(sampleRate: 44100, channels: 2), PCMFormat(sampleRate: 22050, channels: 1),
                                 PCMFormat(sampleRate: 44100, channels: 2)])
    }

    func testResyncsOverLeadingAndMidStreamGarbage() throws {
        let tone = try bytes(TestMedia.tone(seconds: 3))
        let junk = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) & 0x7F }
        let segments = try decode(junk + Array(tone[..<20000]) + junk + Array(tone[20000...]))
        let frames = segments.filter { $0.format == PCMFormat(sampleRate: 44100, channels: 2) }.map(\.frames).reduce(0, +)
        XCTAssertGreaterThan(Double(frames) / 44100, 2.5)
    }

    func testStreamInfo() throws {
        let decoder = try Mpg123Decoder()
        XCTAssertNil(decoder.streamInfo)
        let tone = try bytes(TestMedia.tone(seconds: 2))
        try tone.withUnsafeBytes { try decoder.feed($0) }
        var output = [UInt8](repeating: 0, count: 32768)
        _ = output.withUnsafeMutableBytes { decoder.read(into: $0) }
        _ = output.withUnsafeMutableBytes { decoder.read(into: $0) }
        XCTAssertEqual(decoder.streamInfo, AudioStreamInfo(codec: "MP3", bitrate: 128))
    }
}
