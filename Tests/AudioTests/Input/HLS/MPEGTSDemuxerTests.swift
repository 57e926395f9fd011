import Foundation
import WavedialTestSupport
import XCTest
@testable import Audio

final class MPEGTSDemuxerTests: XCTestCase {
    /// Demuxes `bytes` in chunks of `chunk`; returns the audio bytes, their encodings and the titles.
    private func demux(_ bytes: [UInt8], chunk: Int = 1316, demuxer: inout MPEGTSDemuxer)
        -> (audio: [UInt8], encodings: Set<AudioEncoding>, titles: [String]) {
        var audio: [UInt8] = []
        var encodings = Set<AudioEncoding>()
        var titles: [String] = []
        let collect = { (output: DemuxedOutput) -> Bool in
            switch output {
            case .audio(let encoding, let data):
                encodings.insert(encoding)
                audio += data
            case .title(let title):
                titles.append(title)
            }
            return true
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            bytes[offset..<end].withUnsafeBytes { _ = demuxer.push($0, output: collect) }
            offset = end
        }
        demuxer.flush(output: collect)
        return (audio, encodings, titles)
    }

    private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    func testAACFromFFmpegsTransportStreamIsExactlyWhatFFmpegTakesOut() throws {
        let ts = try TestMedia.hlsMedia(.transportStreamAAC, seconds: 5)
        let expected = try TestMedia.elementaryStream(of: ts, format: "adts")
        for chunk in [1, 187, 188, 4096, 1 << 20] {
            var demuxer = MPEGTSDemuxer()
            let result = demux(try bytes(ts), chunk: chunk, demuxer: &demuxer)
            XCTAssertEqual(result.encodings, [.adts], "chunk \(chunk)")
            XCTAssertEqual(result.audio.count, expected.count, "chunk \(chunk)")
            XCTAssertTrue(result.audio == expected, "chunk \(chunk): the ADTS stream differs from ffmpeg's")
            XCTAssertNil(demuxer.unsupported)
        }
    }

    func testMP3FromFFmpegsTransportStreamIsExactlyWhatFFmpegTakesOut() throws {
        let ts = try TestMedia.hlsMedia(.transportStreamMP3, seconds: 3)
        let expected = try TestMedia.elementaryStream(of: ts, format: "mp3")
        var demuxer = MPEGTSDemuxer()
        let result = demux(try bytes(ts), demuxer: &demuxer)
        XCTAssertEqual(result.encodings, [.mpeg])
        XCTAssertTrue(result.audio == expected, "\(result.audio.count) bytes against ffmpeg's \(expected.count)")
    }

    func testID3TimedMetadataBecomesTitlesInStreamOrder() throws {
        let adts = try bytes(TestMedia.hlsMedia(.adts, seconds: 2))
        var writer = TransportStreamWriter()
        let first = writer.segment(adts: adts, id3Tags: [ID3TagWriter.tag([.text("TPE1", "Artist"), .text("TIT2", "Song One")])])
        let second = writer.segment(adts: adts, id3Tags: [ID3TagWriter.tag(version: 3, [.text("TIT2", "Song Two", utf16: true)])])
        var demuxer = MPEGTSDemuxer()
        let result = demux(first + second, chunk: 100, demuxer: &demuxer)
        XCTAssertEqual(result.titles, ["Artist - Song One", "Song Two"])
        XCTAssertTrue(result.audio == adts + adts, "the audio of both segments, whole")
    }

    func testGarbageBeforeAndInsideIsSkippedAndSyncRegained() throws {
        let ts = try bytes(TestMedia.hlsMedia(.transportStreamAAC, seconds: 2))
        var random = SystemRandomNumberGenerator()
        let garbage = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }
        var demuxer = MPEGTSDemuxer()
        let clean = demux(ts, demuxer: &demuxer).audio
        demuxer.reset()
        let result = demux(garbage + ts + Array(garbage.prefix(777)) + ts, demuxer: &demuxer)
        // Random bytes may pass for a packet now and then, but never on the audio PID with a valid PES start.
        XCTAssertGreaterThanOrEqual(result.audio.count, 2 * clean.count - 4096)
        XCTAssertTrue(result.audio.suffix(clean.count / 2) == clean.suffix(clean.count / 2), "in sync again after the garbage")
    }

    func testAProgramWithOnlyVideoOrAC3IsUnsupported() {
        for (type, reason) in [(UInt8(0x1B), "HLS video only"), (0x81, "HLS audio AC-3"), (0xCF, "HLS audio SAMPLE-AES")] {
            var demuxer = MPEGTSDemuxer()
            _ = demux(Self.programWithOneStream(type: type), demuxer: &demuxer)
            XCTAssertEqual(demuxer.unsupported, UnsupportedMedia(reason))
        }
    }

    func testBrokenSectionsAreIgnored() throws {
        var section = Self.programWithOneStream(type: 0x0F)
        section[188 + 20] ^= 0xFF  // inside the PMT: its CRC no longer holds
        var demuxer = MPEGTSDemuxer()
        _ = demux(section, demuxer: &demuxer)
        XCTAssertNil(demuxer.audioEncoding)
    }

    /// A PAT and a PMT naming one stream of `type` on PID 0x100.
    private static func programWithOneStream(type: UInt8) -> [UInt8] {
        func section(_ table: UInt8, _ body: [UInt8]) -> [UInt8] {
            let length = 5 + body.count + 4
            let head: [UInt8] = [table, 0xB0, UInt8(length), 0, 1, 0xC1, 0, 0] + body
            let crc = Self.crc(head)
            return head + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        }
        func packet(_ pid: UInt16, _ payload: [UInt8]) -> [UInt8] {
            let header: [UInt8] = [0x47, 0x40 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10, 0]
            return header + payload + [UInt8](repeating: 0xFF, count: 188 - header.count - payload.count)
        }
        return packet(0, section(0, [0, 1, 0xF0, 0x00])) + packet(0x1000, section(2, [0xE1, 0x00, 0xF0, 0, type, 0xE1, 0x00, 0xF0, 0]))
    }

    private static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
