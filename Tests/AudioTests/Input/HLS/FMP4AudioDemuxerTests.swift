import Foundation
import WavedialTestSupport
import XCTest
@testable import Audio

final class FMP4AudioDemuxerTests: XCTestCase {
    private func demux(_ segments: [[UInt8]], initialization: [UInt8]? = nil) -> (FMP4AudioDemuxer, [UInt8]) {
        var demuxer = FMP4AudioDemuxer()
        if let initialization { demuxer.readInitialization(initialization) }
        var audio: [UInt8] = []
        for segment in segments {
            demuxer.push(segment: segment) { output in
                if case .audio(let encoding, let bytes) = output {
                    XCTAssertEqual(encoding, .adts)
                    audio += bytes
                }
                return true
            }
        }
        return (demuxer, audio)
    }

    /// ffmpeg's fragmented MP4 (init and fragments in one file) becomes exactly the ADTS stream ffmpeg's own
    /// demuxer and ADTS muxer make of it: the headers written from the esds AudioSpecificConfig are ffmpeg's.
    func testSamplesBecomeTheADTSFramesFFmpegMakes() throws {
        let mp4 = try TestMedia.hlsMedia(.fragmentedMP4, seconds: 5)
        let expected = try TestMedia.elementaryStream(of: mp4, format: "adts")
        let (demuxer, audio) = demux([Array(try Data(contentsOf: mp4))])
        XCTAssertEqual(demuxer.audioEncoding, .adts)
        XCTAssertEqual(audio.count, expected.count)
        XCTAssertTrue(audio == expected)
    }

    /// As HLS serves it: the init section (up to the first moof) by EXT-X-MAP, then each fragment on its own.
    func testInitSectionThenSegmentsOneByOne() throws {
        let file = Array(try Data(contentsOf: try TestMedia.hlsMedia(.fragmentedMP4, seconds: 5)))
        let boxes = Array(MP4Boxes(file, 0..<file.count))
        guard let firstFragment = boxes.firstIndex(where: { $0.type == "moof" }) else { return XCTFail("no moof") }
        let initialization = Array(file[0..<boxes[firstFragment].start])
        var segments: [[UInt8]] = []
        for index in stride(from: firstFragment, to: boxes.count - 1, by: 2) where boxes[index].type == "moof" {
            segments.append(Array(file[boxes[index].start..<boxes[index + 1].body.upperBound]))
        }
        XCTAssertGreaterThanOrEqual(segments.count, 4)
        let expected = try TestMedia.elementaryStream(of: try TestMedia.hlsMedia(.fragmentedMP4, seconds: 5), format: "adts")
        let (_, audio) = demux(segments, initialization: initialization)
        XCTAssertTrue(audio == expected)
        let (without, nothing) = demux(segments)
        XCTAssertNil(without.audioEncoding)
        XCTAssertEqual(nothing, [], "no samples without the track's description")
    }

    func testADTSHeadersFromAudioSpecificConfigs() {
        // AAC-LC 44.1 kHz stereo: 0x12 0x10.
        XCTAssertEqual(ADTSHeaderWriter(audioSpecificConfig: [0x12, 0x10])?.header(payloadLength: 100),
                       [0xFF, 0xF1, 0x50, 0x80, 0x0D, 0x7F, 0xFC])
        // HE-AAC with explicit SBR (object type 5, 24 kHz core, 48 kHz extension, core AAC-LC): the header says LC at 24 kHz.
        let he = ADTSHeaderWriter(audioSpecificConfig: [0x2B, 0x11, 0x88, 0x00])
        XCTAssertEqual(he?.profile, 1)
        XCTAssertEqual(he?.samplingIndex, 6)
        XCTAssertEqual(he?.channels, 2)
        XCTAssertNil(ADTSHeaderWriter(audioSpecificConfig: [0x12, 0x00]), "channel configuration 0 (a PCE) cannot be said in ADTS")
        XCTAssertNil(ADTSHeaderWriter(audioSpecificConfig: [0x12]))
        XCTAssertNil(ADTSHeaderWriter(audioSpecificConfig: [0x12, 0x10])?.header(payloadLength: 8185), "longer than 13 bits")
    }

    func testBoxSizesAreCheckedAndLargeSizesRead() {
        // A 64-bit-size box, a size-0 box running to the end, a box claiming more than there is.
        let large: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0, 0, 0, 0, 0, 0, 0, 20] + [1, 2, 3, 4]
        let toEnd: [UInt8] = [0, 0, 0, 0] + Array("mdat".utf8) + [9, 9]
        let boxes = Array(MP4Boxes(large + toEnd, 0..<(large.count + toEnd.count)))
        XCTAssertEqual(boxes.map(\.type), ["free", "mdat"])
        XCTAssertEqual(boxes.map(\.body), [16..<20, 28..<30])
        let overlong: [UInt8] = [0, 0, 1, 0] + Array("moof".utf8) + [0, 0]
        XCTAssertEqual(Array(MP4Boxes(overlong, 0..<overlong.count)).count, 0)
        let huge: [UInt8] = [0, 0, 0, 1] + Array("moof".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        XCTAssertEqual(Array(MP4Boxes(huge, 0..<huge.count)).count, 0)
        let tiny: [UInt8] = [0, 0, 0, 4] + Array("moof".utf8)
        XCTAssertEqual(Array(MP4Boxes(tiny, 0..<tiny.count)).count, 0, "smaller than its own header")
    }

    func testATrackOtherThanAACOrMP3IsUnsupported() {
        func movie(_ entry: String, handler: String = "soun") -> [UInt8] {
            func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
                let size = 8 + body.count
                return [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
            }
            let tkhd = box("tkhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1] + [UInt8](repeating: 0, count: 60))
            let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
            let stsd = box("stsd", [0, 0, 0, 0, 0, 0, 0, 1] + box(entry, [UInt8](repeating: 0, count: 28)))
            let mdia = box("mdia", hdlr + box("minf", box("stbl", stsd)))
            return box("moov", box("trak", tkhd + mdia))
        }
        var demuxer = FMP4AudioDemuxer()
        demuxer.readInitialization(movie("Opus"))
        XCTAssertEqual(demuxer.unsupported, UnsupportedMedia("HLS audio Opus"))
        demuxer.readInitialization(movie("enca"))
        XCTAssertEqual(demuxer.unsupported, UnsupportedMedia("HLS SAMPLE-AES"))
        demuxer.readInitialization(movie("avc1", handler: "vide"))
        XCTAssertEqual(demuxer.unsupported, UnsupportedMedia("HLS video only"))
    }
}
