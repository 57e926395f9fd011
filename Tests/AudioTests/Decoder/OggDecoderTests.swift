import WavedialTestSupport
import XCTest
@testable import Audio

final class OggDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], chunkSizes: [Int] = [4096]) throws -> DecodedSegments {
        try DecodedSegments.decode(OggDecoder(), bytes, chunkSizes: chunkSizes)
    }

    private func tone(_ codec: TestMedia.OggCodec, sampleRate: Int = 48000, channels: Int = 2, title: String? = "Song",
                      artist: String? = "Band", serialOffset: Int = 0) throws -> [UInt8] {
        try DecodedSegments.bytes(of: TestMedia.oggTone(codec: codec, sampleRate: sampleRate, channels: channels,
                                                        title: title, artist: artist, serialOffset: serialOffset))
    }

    func testMakesTheOggDecoder() throws {
        XCTAssertTrue(try AudioDecoders.make(for: .ogg) is OggDecoder)
    }

    func testOpusDecodesAt48kWithTitleBeforeTheAudioAndEveryFrameOfTheTone() throws {
        let decoded = try decode(try tone(.opus))
        XCTAssertEqual(decoded.events.first, .title("Band - Song"))
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 48000, channels: 2)])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        // Pre-skip dropped at the start, the last granule position trims the end: exactly the 2 s made.
        XCTAssertEqual(decoded.frameCounts, [96000])
        XCTAssertEqual(decoded.unformattedBytes, 0)
    }

    func testVorbisDecodesAtItsRateWithTitleAndNominalBitrate() throws {
        let decoder = OggDecoder()
        XCTAssertNil(decoder.streamInfo)
        let decoded = try DecodedSegments.decode(decoder, try tone(.vorbis, sampleRate: 44100))
        XCTAssertEqual(decoded.titles, ["Band - Song"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        XCTAssertEqual(decoded.frameCounts, [88200])
        XCTAssertEqual(decoder.streamInfo, AudioStreamInfo(codec: "Vorbis", bitrate: 128))
    }

    func testOggFLACDecodesMonoAt22kWithTitleAndEveryFrame() throws {
        let decoder = OggDecoder()
        let decoded = try DecodedSegments.decode(decoder, try tone(.flac, sampleRate: 22050, channels: 1, title: "Only Title", artist: nil))
        XCTAssertEqual(decoded.titles, ["Only Title"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 22050, channels: 1)])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
        XCTAssertEqual(decoded.frameCounts, [44100])
        XCTAssertEqual(decoder.streamInfo?.codec, "FLAC")
    }

    func testOpusMeasuresItsBitrate() throws {
        let decoder = OggDecoder()
        let bytes = try tone(.opus)
        _ = try DecodedSegments.decode(decoder, bytes)
        let info = try XCTUnwrap(decoder.streamInfo)
        XCTAssertEqual(info.codec, "Opus")
        // What the audio packets weigh against the 2 s they give (pre-skip included: 2 s + 6.5 ms).
        let audioBytes = OggTestPages.packets(of: bytes).packets.dropFirst(2).map(\.data.count).reduce(0, +)
        XCTAssertEqual(Double(info.bitrate), Double(audioBytes) * 8 / 2 / 1000, accuracy: 2)
    }

    func testOpusAppliesTheHeaderOutputGain() throws {
        var (serial, packets) = OggTestPages.packets(of: try tone(.opus))
        let plain = try decode(OggTestPages.stream(serial: serial, packets: packets))
        // -6.02 dB in Q7.8: half the amplitude.
        let gain = Int16(-1541)
        packets[0].data[16] = UInt8(truncatingIfNeeded: gain)
        packets[0].data[17] = UInt8(truncatingIfNeeded: gain >> 8)
        let quieter = try decode(OggTestPages.stream(serial: serial, packets: packets))
        XCTAssertEqual(quieter.frameCounts, [96000])
        XCTAssertEqual(rms(quieter.allSamples) / rms(plain.allSamples), 0.5, accuracy: 0.01)
    }

    func testOpusMonoAndStereoDecodeEveryFrameOfTheTone() throws {
        // Channel mapping family 0, what stations send: libopus's plain decoder.
        for channels in [1, 2] {
            let bytes = try tone(.opus, channels: channels)
            XCTAssertEqual(OggTestPages.packets(of: bytes).packets[0].data[18], 0)
            let decoded = try decode(bytes)
            XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 48000, channels: channels)])
            XCTAssertEqual(decoded.frameCounts, [96000])
            let samples = decoded.segments.first?.samples ?? []
            for channel in 0..<channels {
                XCTAssertEqual(PCMAnalysis.frequency(samples, channels: channels, sampleRate: 48000, channel: channel), 440,
                               accuracy: 2)
            }
        }
    }

    func testOpusSurroundDecodesEveryChannel() throws {
        // Six channels: channel mapping family 1, four streams of which two are coupled.
        let bytes = try tone(.opus, channels: 6)
        XCTAssertEqual(OggTestPages.packets(of: bytes).packets[0].data[18], 1)
        let decoded = try decode(bytes)
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 48000, channels: 6)])
        XCTAssertEqual(decoded.frameCounts, [96000])
        let samples = decoded.segments.first?.samples ?? []
        for channel in [0, 2, 5] {
            XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 6, sampleRate: 48000, channel: channel), 440, accuracy: 2)
        }
    }

    func testHotVorbisClipsInsteadOfWrappingAround() throws {
        let decoded = try decode(try DecodedSegments.bytes(of: TestMedia.oggTone(codec: .vorbis, sampleRate: 44100, gainDecibels: 21)))
        let samples = decoded.segments.first?.samples ?? []
        XCTAssertEqual(samples.max(), Int16.max)
        XCTAssertEqual(samples.min(), Int16.min)
        // One channel's steepest step: a full-scale 440 Hz sine moves at most 2π·440/44100 of 32768 (about
        // 2054) a sample; a sample that wrapped around would jump by some 65000.
        let left = stride(from: 0, to: samples.count, by: 2).map { Int(samples[$0]) }
        let steepest = zip(left.dropFirst(), left).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThan(steepest, 4000)
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
    }

    private func rms(_ samples: [Int16]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    func testOddSizedChunksDecodeToTheSameSamples() throws {
        for codec in [TestMedia.OggCodec.opus, .vorbis, .flac] {
            let bytes = try tone(codec, sampleRate: 44100)
            let whole = try decode(bytes, chunkSizes: [bytes.count])
            let pieces = try decode(bytes, chunkSizes: [1, 7, 333, 2, 4096, 13])
            XCTAssertEqual(pieces.events, whole.events, "\(codec)")
            XCTAssertEqual(pieces.allSamples, whole.allSamples, "\(codec)")
            XCTAssertGreaterThan(whole.allSamples.count, 0)
        }
    }

    func testGarbageBetweenPagesIsSkipped() throws {
        for codec in [TestMedia.OggCodec.opus, .vorbis, .flac] {
            let bytes = try tone(codec, sampleRate: 44100)
            let clean = try decode(bytes)
            // Junk (with a false "OggS" in it) before every page after the first two.
            let junk = Array("OggS\u{0}junk".utf8) + (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var dirty: [UInt8] = []
            var pageIndex = 0
            for (offset, byte) in bytes.enumerated() {
                if bytes[offset...].starts(with: Array("OggS".utf8)) {
                    if pageIndex >= 2 { dirty += junk }
                    pageIndex += 1
                }
                dirty.append(byte)
            }
            // libogg waits for as many bytes as a false page header claims before its checksum rejects
            // it: the stream going on (here, zeros) releases the pages behind it.
            let decoded = try decode(junk + dirty + [UInt8](repeating: 0, count: 70_000))
            XCTAssertGreaterThanOrEqual(pageIndex, 4)
            XCTAssertEqual(decoded.events, clean.events, "\(codec)")
            XCTAssertEqual(decoded.allSamples, clean.allSamples, "\(codec)")
        }
    }

    func testChainedStreamsReportEachTitleAndFormatInOrderAndLoseNoSamples() throws {
        let first = try tone(.opus, title: "First", artist: "One", serialOffset: 1)
        let second = try tone(.vorbis, sampleRate: 44100, channels: 1, title: "Second", artist: "Two", serialOffset: 2)
        let third = try tone(.flac, sampleRate: 22050, channels: 1, title: "Third", artist: "Three", serialOffset: 3)
        let fourth = try tone(.opus, title: "Fourth", artist: "Four", serialOffset: 4)
        let decoded = try decode(first + second + third + fourth, chunkSizes: [4096, 333])
        XCTAssertEqual(decoded.titles, ["One - First", "Two - Second", "Three - Third", "Four - Fourth"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 48000, channels: 2), PCMFormat(sampleRate: 44100, channels: 1),
                                         PCMFormat(sampleRate: 22050, channels: 1), PCMFormat(sampleRate: 48000, channels: 2)])
        XCTAssertEqual(decoded.frameCounts, [96000, 88200, 44100, 96000])
        // Each stream's title comes before its format and its audio.
        XCTAssertEqual(decoded.events.map(\.kind), ["title", "format", "pcm", "title", "format", "pcm", "title", "format", "pcm",
                                                    "title", "format", "pcm"])
        for index in 0..<4 { XCTAssertEqual(decoded.frequency(ofSegment: index), 440, accuracy: 2) }
    }

    func testChainedStreamInTheSameFormatAnnouncesNoFormatChange() throws {
        let first = try tone(.vorbis, sampleRate: 44100, title: "First", serialOffset: 1)
        let second = try tone(.vorbis, sampleRate: 44100, title: "Second", serialOffset: 2)
        let decoded = try decode(first + second)
        XCTAssertEqual(decoded.titles, ["Band - First", "Band - Second"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frameCounts, [2 * 88200])
    }

    /// The offsets at which `bytes`' pages start.
    private func pageOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset + 27 <= bytes.count {
            offsets.append(offset)
            let segments = Int(bytes[offset + 26])
            offset += 27 + segments + bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
        }
        return offsets
    }

    func testANewStreamWhoseHeadersWereCutPlaysOnWithTheCodecSetUp() throws {
        let first = try tone(.vorbis, sampleRate: 44100, title: "First", serialOffset: 1)
        let second = try DecodedSegments.bytes(of: TestMedia.oggTone(codec: .vorbis, frequency: 880, sampleRate: 44100,
                                                                     seconds: 4, title: "Second", serialOffset: 2))
        // The second stream's identification, comment and setup headers (its first two pages) are lost.
        let headerless = Array(second[pageOffsets(second)[2]...])
        let decoded = try decode(first + headerless)
        XCTAssertEqual(decoded.titles, ["Band - First"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        let samples = decoded.allSamples
        XCTAssertEqual(PCMAnalysis.frequency(Array(samples.prefix(88200 * 2)), channels: 2, sampleRate: 44100), 440, accuracy: 2)
        XCTAssertEqual(PCMAnalysis.frequency(Array(samples.suffix(44100)), channels: 2, sampleRate: 44100), 880, accuracy: 2)
        // The first of its pages goes to telling a cut from a stray page: at most a page of audio is lost.
        XCTAssertGreaterThan(decoded.frameCounts.first ?? 0, 88200 + 44100 * 2)
        // Without a codec set up before, headerless pages give nothing.
        let alone = try decode(headerless)
        XCTAssertEqual(alone.events, [])
    }

    func testPagesOfAGroupedStreamAreIgnored() throws {
        let bytes = try tone(.vorbis, sampleRate: 44100)
        let offsets = pageOffsets(bytes) + [bytes.count]
        let pages = (0..<(offsets.count - 1)).map { Array(bytes[offsets[$0]..<offsets[$0 + 1]]) }
        // A skeleton-like stream grouped with the audio: its BOS page next to the audio's, then pages of
        // its own between the audio's, two and more in a row.
        let other = { (sequence: UInt32, flags: UInt8) in
            OggTestPages.page(serial: 99, sequence: sequence, granule: 0, flags: flags, lacing: [16],
                              body: Array("fishead\u{0}".utf8) + [UInt8](repeating: 7, count: 8))
        }
        var grouped = pages[0] + other(0, 0x02)
        var sequence: UInt32 = 1
        for page in pages.dropFirst() {
            grouped += other(sequence, 0) + other(sequence + 1, 0) + other(sequence + 2, 0) + page
            sequence += 3
        }
        let decoded = try decode(grouped)
        let clean = try decode(bytes)
        XCTAssertEqual(decoded.events, clean.events)
        XCTAssertEqual(decoded.allSamples, clean.allSamples)
    }

    func testRestartForgetsTheStreamHalfWay() throws {
        let first = try tone(.opus, title: "First", serialOffset: 1)
        let second = try tone(.vorbis, sampleRate: 44100, channels: 1, title: "Second", serialOffset: 2)
        let decoder = OggDecoder()
        var decoded = try DecodedSegments.decode(decoder, Array(first[..<(first.count / 2)]))
        XCTAssertEqual(decoded.titles, ["Band - First"])
        try decoder.restart()
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        decoded = DecodedSegments()
        try second.withUnsafeBytes { try decoder.feed($0) }
        try decoded.drain(decoder, &output)
        XCTAssertEqual(decoded.titles, ["Band - Second"])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 1)])
        XCTAssertEqual(decoded.frameCounts, [88200])
    }

    func testRestartAnnouncesTheFormatAgain() throws {
        let bytes = try tone(.opus)
        let decoder = OggDecoder()
        _ = try DecodedSegments.decode(decoder, bytes)
        try decoder.restart()
        let again = try DecodedSegments.decode(decoder, bytes)
        XCTAssertEqual(again.formats, [PCMFormat(sampleRate: 48000, channels: 2)])
        XCTAssertEqual(again.frameCounts, [96000])
    }

    func testHostileOpusTagsDoNotStopTheAudio() throws {
        let (serial, packets) = OggTestPages.packets(of: try tone(.opus))
        let magic = Array("OpusTags".utf8)
        let bounded = OggTestPages.commentBody(fields: ["TITLE=Evil", "ARTIST=Band"])
        let hostileTags: [(name: String, body: [UInt8], title: String?)] = [
            ("vendor length beyond the packet", OggTestPages.bytes(0xFFFF_FFF0, 4) + Array("x".utf8), nil),
            // Four billion fields claimed, two there: both are read, nothing is allocated for the rest.
            ("huge field count", Array(bounded[0..<8]) + OggTestPages.bytes(0xFFFF_FFFF, 4) + Array(bounded[12...]), "Band - Evil"),
            ("field length beyond the packet", Array(OggTestPages.commentBody(fields: ["TITLE=Evil"]).dropLast(4)), nil),
            ("control characters", OggTestPages.commentBody(fields: ["TITLE=Ev\u{1B}[2Jil\nNow", "ARTIST=\u{202E}Band\u{7}"]),
             "Band - Ev [2Jil Now"),
        ]
        for hostile in hostileTags {
            var stream = packets
            stream[1] = OggTestPages.Packet(data: magic + hostile.body, granule: stream[1].granule)
            let decoded = try decode(OggTestPages.stream(serial: serial, packets: stream))
            XCTAssertEqual(decoded.titles, hostile.title.map { [$0] } ?? [], hostile.name)
            XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 48000, channels: 2)], hostile.name)
            XCTAssertEqual(decoded.frameCounts, [96000], hostile.name)
        }
    }

    func testAVorbisCommentHeaderTooBigToKeepIsDroppedAndTheAudioStillPlays() throws {
        let (serial, packets) = OggTestPages.packets(of: try tone(.vorbis, sampleRate: 44100))
        XCTAssertEqual(packets[1].data.first, 0x03)
        // 1.5 MB of cover art in the comment header, over many pages: more than a packet may hold.
        let art = "METADATA_BLOCK_PICTURE=" + String(repeating: "A", count: 1_500_000)
        var stream = packets
        stream[1].data = [0x03] + Array("vorbis".utf8) + OggTestPages.commentBody(fields: ["TITLE=Big", art]) + [1]
        let decoded = try decode(OggTestPages.stream(serial: serial, packets: stream))
        XCTAssertEqual(decoded.titles, [])
        XCTAssertEqual(decoded.formats, [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoded.frameCounts, [88200])
        XCTAssertEqual(decoded.frequency(ofSegment: 0), 440, accuracy: 2)
    }

    func testBrokenOpusHeaderSkipsTheStreamUntilTheNextOne() throws {
        var (serial, packets) = OggTestPages.packets(of: try tone(.opus, title: "Broken", serialOffset: 1))
        packets[0].data[18] = 7  // a channel mapping family nobody defined
        let broken = OggTestPages.stream(serial: serial, packets: packets)
        let decoded = try decode(broken + (try tone(.opus, title: "Fine", serialOffset: 2)))
        XCTAssertEqual(decoded.titles, ["Band - Fine"])
        XCTAssertEqual(decoded.frameCounts, [96000])
    }
}

private extension DecodedSegments.Event {
    var kind: String {
        switch self {
        case .title: return "title"
        case .format: return "format"
        case .pcm: return "pcm"
        }
    }
}
