import WavedialTestSupport
import XCTest
@testable import Audio

final class FLACDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], chunkSizes: [Int] = [4096]) throws -> DecodedSegments {
        try DecodedSegments.decode(FLACDecoder(), bytes, chunkSizes: chunkSizes)
    }

    private func tone(sampleRate: Int = 44100, channels: Int = 2, bitsPerSample: Int = 16, title: String? = "Song",
                      artist: String? = "Band") throws -> [UInt8] {
        try DecodedSegments.bytes(of: TestMedia.flacTone(sampleRate: sampleRate, channels: channels, bitsPerSample: bitsPerSample,
                                                         title: title, artist: artist))
    }

    func testMakesTheFLACDecoder() throws {
        XCTAssertTrue(try AudioDecoders.make(for: .flac) is FLACDecoder)
    }

    func testDecodes16BitStereoLosslesslyWithTitleFirst() throws {
        let decoder = try FLACDecoder()
        XCTAssertNil(decoder.streamInfo)
        let file = try TestMedia.flacTone(title: "Song", artist: "Band")
        let bytes = try DecodedSegments.bytes(of: file)
        let decoded = try DecodedSegments.decode(decoder, bytes)
        XCTAssertEqual(decoded.events.first, .title("Band - Song"))
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        XCTAssertEqual(decoded.frameCounts, [88200])
        XCTAssertEqual(decoded.allSamples, try TestMedia.ffmpegSamples(of: file))
        let info = try XCTUnwrap(decoder.streamInfo)
        XCTAssertEqual(info.codec, "FLAC")
        // Measured: the frames' bytes over the 2 s they hold.
        let frameBytes = try FLACTestStream(bytes).frames.count
        XCTAssertEqual(Double(info.bitrate), Double(frameBytes) * 8 / 2 / 1000, accuracy: 1)
    }

    func testDecodes24BitToItsTop16Bits() throws {
        let file = try TestMedia.flacTone(bitsPerSample: 24, title: "Song", artist: "Band")
        let decoded = try decode(try DecodedSegments.bytes(of: file))
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frameCounts, [88200])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        // ffmpeg's conversion to 16 bits drops the low 8 bits too.
        XCTAssertEqual(decoded.allSamples, try TestMedia.ffmpegSamples(of: file))
    }

    func testDecodesMono22k() throws {
        let decoded = try decode(try tone(sampleRate: 22050, channels: 1, title: nil, artist: "Only Artist"))
        XCTAssertEqual(decoded.titles, ["Only Artist"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 22050, channels: 1)])
        XCTAssertEqual(decoded.frameCounts, [44100])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
    }

    func testOddSizedChunksDecodeToTheSameSamples() throws {
        let bytes = try tone()
        let whole = try decode(bytes, chunkSizes: [bytes.count])
        for sizes in [[1], [7, 333, 2, 13], [4095, 1, 9000]] {
            let pieces = try decode(bytes, chunkSizes: sizes)
            XCTAssertEqual(pieces.events, whole.events, "\(sizes)")
            XCTAssertEqual(pieces.allSamples, whole.allSamples, "\(sizes)")
        }
        XCTAssertEqual(whole.frameCounts, [88200])
    }

    func testAStreamJoinedMidFramePlaysFromTheNextFrame() throws {
        let bytes = try tone()
        let whole = try decode(bytes)
        let joined = try decode(Array(bytes[(bytes.count / 3)...]), chunkSizes: [1500])
        XCTAssertEqual(joined.titles, [])
        XCTAssertEqual(joined.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(joined.frequency(ofSegment: 0), 440, accuracy: 2)
        // The frames after the cut, exactly: two thirds of the tone less at most the frame it cut.
        XCTAssertGreaterThan(joined.frameCounts.first ?? 0, 88200 * 2 / 3 - 4608)
        XCTAssertEqual(Array(whole.allSamples.suffix(joined.allSamples.count)), joined.allSamples)
    }

    func testGarbageInTheMiddleCostsAtMostTheFramesItHits() throws {
        let bytes = try tone()
        // Junk full of false sync codes, dropped into the middle of a frame.
        let junk = (0..<3000).flatMap { index -> [UInt8] in index % 3 == 0 ? [0xFF, 0xF8] : [UInt8(truncatingIfNeeded: index &* 29)] }
        let middle = bytes.count / 2
        let decoded = try decode(Array(bytes[..<middle]) + junk + Array(bytes[middle...]), chunkSizes: [1000])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        XCTAssertGreaterThanOrEqual(decoded.frameCounts.first ?? 0, 88200 - 2 * 4608)
        XCTAssertLessThanOrEqual(decoded.frameCounts.first ?? 0, 88200 + 4608)
    }

    func testRestartStartsANewStream() throws {
        let first = try tone(title: "First")
        let second = try tone(sampleRate: 22050, channels: 1, title: "Second")
        let decoder = try FLACDecoder()
        var decoded = try DecodedSegments.decode(decoder, Array(first[..<(first.count / 2)]))
        XCTAssertEqual(decoded.titles, ["Band - First"])
        try decoder.restart()
        decoded = try DecodedSegments.decode(decoder, second)
        XCTAssertEqual(decoded.titles, ["Band - Second"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 22050, channels: 1)])
        XCTAssertEqual(decoded.frameCounts, [44100])
    }

    func testLargeMetadataBlocksAreSkippedAsTheyArrive() throws {
        let bytes = try tone()
        let clean = try decode(bytes)
        var stream = try FLACTestStream(bytes)
        // Two megabytes of APPLICATION data and padding between STREAMINFO and the comments.
        stream.blocks.insert((type: 2, body: [UInt8](repeating: 0xFF, count: 2_000_000)), at: 1)
        stream.blocks.insert((type: 1, body: [UInt8](repeating: 0, count: 300_000)), at: 2)
        let decoded = try decode(stream.bytes)
        XCTAssertEqual(decoded.events, clean.events)
        XCTAssertEqual(decoded.allSamples, clean.allSamples)
    }

    func testAnID3TagBeforeTheStreamIsSkipped() throws {
        let bytes = try tone()
        let clean = try decode(bytes)
        // ID3v2.4 with 300 bytes of frames (a false frame sync among them), size in 7-bit bytes.
        let body = [UInt8](repeating: 0x41, count: 100) + [0xFF, 0xF8, 0xC9, 0x18] + [UInt8](repeating: 0, count: 196)
        let tag = Array("ID3".utf8) + [4, 0, 0, 0, 0, UInt8(body.count >> 7), UInt8(body.count & 0x7F)] + body
        let decoded = try decode(tag + bytes, chunkSizes: [5, 4096])
        XCTAssertEqual(decoded.events, clean.events)
        XCTAssertEqual(decoded.allSamples, clean.allSamples)
    }

    func testHostileVorbisCommentBlockDoesNotStopTheAudio() throws {
        var stream = try FLACTestStream(try tone())
        let comment = try XCTUnwrap(stream.blocks.firstIndex { $0.type == 4 })
        let fields = OggTestPages.commentBody(fields: ["ARTIST=Evil\u{0}\u{1B}", "TITLE=Tune"])
        // Four billion fields claimed, two there.
        stream.blocks[comment].body = Array(fields[0..<8]) + OggTestPages.bytes(0xFFFF_FFFF, 4) + Array(fields[12...])
        var decoded = try decode(stream.bytes)
        XCTAssertEqual(decoded.titles, ["Evil - Tune"])
        XCTAssertEqual(decoded.frameCounts, [88200])
        // A vendor string longer than the block.
        stream.blocks[comment].body = OggTestPages.bytes(0x7FFF_FFFF, 4) + [1, 2, 3]
        decoded = try decode(stream.bytes)
        XCTAssertEqual(decoded.titles, [])
        XCTAssertEqual(decoded.frameCounts, [88200])
    }

    func testAStreamLongerThanItsSTREAMINFOSaysKeepsPlaying() throws {
        var stream = try FLACTestStream(try tone())
        // STREAMINFO's total sample count says one block; a radio stream goes on past what its first bytes say.
        stream.blocks[0].body[13] = stream.blocks[0].body[13] & 0xF0
        stream.blocks[0].body.replaceSubrange(14..<18, with: [0, 0, 0x12, 0x00])
        let decoded = try decode(stream.bytes)
        XCTAssertEqual(decoded.frameCounts, [88200])
    }
}

/// A native FLAC stream taken apart into its metadata blocks and frames, and put together again.
private struct FLACTestStream {
    var blocks: [(type: UInt8, body: [UInt8])] = []
    var frames: [UInt8]

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: Array("fLaC".utf8)) else { throw FixtureError("not native FLAC") }
        var offset = 4
        while true {
            let isLast = bytes[offset] & 0x80 != 0
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            blocks.append((bytes[offset] & 0x7F, Array(bytes[(offset + 4)..<(offset + 4 + length)])))
            offset += 4 + length
            if isLast { break }
        }
        frames = Array(bytes[offset...])
    }

    var bytes: [UInt8] {
        var bytes = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            let length = block.body.count
            bytes += [last | block.type, UInt8(length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            bytes += block.body
        }
        return bytes + frames
    }
}
