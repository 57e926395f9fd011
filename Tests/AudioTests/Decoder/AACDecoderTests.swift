import WavedialTestSupport
import XCTest
@testable import Audio

final class AACDecoderTests: XCTestCase {
    /// What a stream decoded to: each announced format with the samples that followed it.
    private struct Segment {
        var format: PCMFormat
        var samples: [Int16] = []
        var frames: Int { samples.count / format.channels }
        var seconds: Double { Double(frames) / Double(format.sampleRate) }
    }

    /// Feeds `bytes` in chunks whose sizes cycle through `chunkSizes`, reading until `.needMore` after each.
    private func decode(_ bytes: [UInt8], chunkSizes: [Int] = [4096], with decoder: AACDecoder? = nil) throws -> [Segment] {
        let decoder = try decoder ?? AACDecoder()
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var segments: [Segment] = []
        var offset = 0
        var chunk = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSizes[chunk % chunkSizes.count])
            chunk += 1
            try bytes[offset..<end].withUnsafeBytes { try decoder.feed($0) }
            offset = end
            loop: while true {
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore:
                    break loop
                case .newFormat(let format):
                    segments.append(Segment(format: format))
                case .title(let title):
                    XCTFail("ADTS carries no titles, got \(title)")
                case .pcm(let count):
                    guard let last = segments.indices.last else {
                        XCTFail("PCM before any format")
                        return segments
                    }
                    output.withUnsafeBytes { segments[last].samples += $0.bindMemory(to: Int16.self).prefix(count / 2) }
                }
            }
        }
        return segments
    }

    private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Where each ADTS frame of a clean file starts.
    private func frameStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var offset = 0
        while let header = ADTSHeader(bytes, at: offset) {
            starts.append(offset)
            offset += header.frameLength
        }
        XCTAssertEqual(offset, bytes.count, "the test file is whole ADTS frames")
        return starts
    }

    /// Every frame decodes to 1024 samples a channel (2048 with SBR), but faad's first one after a set-up
    /// gives none (its priming delay).
    private func decodedFrames(_ bytes: [UInt8], samplesPerFrame: Int = 1024) -> Int {
        (frameStarts(bytes).count - 1) * samplesPerFrame
    }

    private func assertTone(_ segment: Segment, frequency: Double, file: StaticString = #filePath, line: UInt = #line) {
        for channel in 0..<segment.format.channels {
            XCTAssertEqual(PCMAnalysis.frequency(segment.samples, channels: segment.format.channels,
                                                 sampleRate: segment.format.sampleRate, channel: channel),
                           frequency, accuracy: 3, "channel \(channel)", file: file, line: line)
        }
    }

    func testDecodesLCTonesInTheirOwnFormat() throws {
        for (rate, channels, frequency, kbps) in [(44100, 2, 440, 128), (22050, 1, 880, 64), (48000, 2, 1000, 128)] {
            let media = try TestMedia.adtsTone(frequency: frequency, sampleRate: rate, channels: channels, seconds: 5, kbps: kbps)
            let tone = try bytes(media)
            let segments = try decode(tone)
            // faad would play a 22.05 kHz stream at 44.1 kHz and every mono stream as stereo; neither may happen.
            XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: rate, channels: channels)])
            XCTAssertEqual(segments.first?.frames, decodedFrames(tone))
            XCTAssertEqual(segments.first?.seconds ?? 0, 5, accuracy: 0.1)
            if let segment = segments.first {
                assertTone(segment, frequency: Double(frequency))
                // faad's floating point comes out at the level FFmpeg's own decoder gives.
                let peak = { (samples: [Int16]) in Double(samples[(samples.count / 3)..<(samples.count * 2 / 3)].map { abs(Int($0)) }.max() ?? 0) }
                let reference = peak(try TestMedia.ffmpegSamples(of: media))
                XCTAssertGreaterThan(reference, 2000)
                XCTAssertEqual(peak(segment.samples), reference, accuracy: reference / 100, "\(rate) Hz")
            }
        }
    }

    func testOddChunksDecodeToTheSamePCM() throws {
        let tone = try bytes(TestMedia.adtsTone(seconds: 3))
        let whole = try decode(tone, chunkSizes: [tone.count])
        let odd = try decode(tone, chunkSizes: [1, 7, 13, 333, 2, 4096, 5])
        XCTAssertEqual(odd.map(\.format), whole.map(\.format))
        XCTAssertEqual(odd.first?.samples, whole.first?.samples)
        XCTAssertEqual(Double(whole.first?.frames ?? 0) / 44100, 3, accuracy: 0.1)
    }

    func testSkipsAMidFrameStartAndJunkBetweenFrames() throws {
        let tone = try bytes(TestMedia.adtsTone(seconds: 3))
        let starts = frameStarts(tone)
        // Junk with sync words in it, one of them a header whose length points at more junk.
        let junk: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            + [0xFF, 0xFF, 0xF1, 0x00]
        var stream = Array(tone[(starts[0] + 100)..<starts[40]])
        for index in 40..<(starts.count - 1) {
            if index % 10 == 0 { stream += junk }
            stream += tone[starts[index]..<starts[index + 1]]
        }
        stream += tone[starts[starts.count - 1]...]
        let segments = try decode(junk + stream, chunkSizes: [1500])
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2)])
        // Every whole frame decodes and nothing else does (the first frame was cut).
        XCTAssertEqual(segments.first?.frames, (starts.count - 1 - 1) * 1024)
        if let segment = segments.first { assertTone(segment, frequency: 440) }
    }

    func testRestartForgetsTheStream() throws {
        let decoder = try AACDecoder()
        let stereo = try bytes(TestMedia.adtsTone(seconds: 2))
        let mono = try bytes(TestMedia.adtsTone(frequency: 880, sampleRate: 22050, channels: 1, seconds: 2, kbps: 64))
        // Half a stream, torn mid-frame: nothing of it may come out after the restart.
        _ = try decode(Array(stereo[..<(stereo.count / 2)]), with: decoder)
        try decoder.restart()
        XCTAssertNil(decoder.streamInfo)
        let afterRestart = try decode(mono, with: decoder)
        let fresh = try decode(mono)
        XCTAssertEqual(afterRestart.map(\.format), [PCMFormat(sampleRate: 22050, channels: 1)])
        XCTAssertEqual(afterRestart.first?.samples, fresh.first?.samples)
    }

    func testFollowsRateAndChannelChanges() throws {
        let stereo = try bytes(TestMedia.adtsTone(seconds: 2))
        let mono = try bytes(TestMedia.adtsTone(frequency: 880, sampleRate: 22050, channels: 1, seconds: 2, kbps: 64))
        let segments = try decode(stereo + mono + stereo, chunkSizes: [777])
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2), PCMFormat(sampleRate: 22050, channels: 1),
                                                 PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(segments.map(\.frames), [decodedFrames(stereo), decodedFrames(mono), decodedFrames(stereo)])
        guard segments.count == 3 else { return }
        assertTone(segments[0], frequency: 440)
        assertTone(segments[1], frequency: 880)
        assertTone(segments[2], frequency: 440)
    }

    func testIsTheDecoderOfADTS() throws {
        XCTAssertTrue(try AudioDecoders.make(for: .adts) is AACDecoder)
    }

    func testStreamInfoMeasuresTheBitrate() throws {
        let decoder = try AACDecoder()
        XCTAssertNil(decoder.streamInfo)
        let tone = try bytes(TestMedia.adtsTone(seconds: 5))
        // One frame: faad's priming frame, no audio yet to measure against.
        let starts = frameStarts(tone)
        _ = try decode(Array(tone[..<(starts[1] + 7)]), with: decoder)
        XCTAssertEqual(decoder.streamInfo, AudioStreamInfo(codec: "AAC", bitrate: 0))
        try decoder.restart()
        let segments = try decode(tone, with: decoder)
        let seconds = segments.first?.seconds ?? 0
        XCTAssertGreaterThan(seconds, 4.9)
        // The file is nothing but frames: its bytes over its duration (less faad's one priming frame) is the rate.
        let frameBytes = Double(tone.count) * Double(frameStarts(tone).count - 1) / Double(frameStarts(tone).count)
        let expected = Int((frameBytes * 8 / seconds / 1000).rounded())
        XCTAssertEqual(decoder.streamInfo?.codec, "AAC")
        XCTAssertEqual(Double(decoder.streamInfo?.bitrate ?? 0), Double(expected), accuracy: 2)
    }

    func testHEAACDecodesAtTwiceTheCoreRate() throws {
        let decoder = try AACDecoder()
        let tone = try bytes(TestMedia.heAACTone(.heAAC, frequency: 440, sampleRate: 44100, seconds: 5, kbps: 48))
        // The ADTS headers say AAC-LC at 22.05 kHz: only the frames' SBR data says HE-AAC.
        XCTAssertEqual(ADTSHeader(tone, at: 0)?.sampleRate, 22050)
        let segments = try decode(tone, chunkSizes: [1000], with: decoder)
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(segments.first?.frames, decodedFrames(tone, samplesPerFrame: 2048))
        if let segment = segments.first { assertTone(segment, frequency: 440) }
        XCTAssertEqual(decoder.streamInfo?.codec, "HE-AAC")
        XCTAssertEqual(Double(decoder.streamInfo?.bitrate ?? 0), 48, accuracy: 4)
    }

    func testHEAACMonoStaysMono() throws {
        let decoder = try AACDecoder()
        let tone = try bytes(TestMedia.heAACTone(.heAAC, frequency: 660, sampleRate: 32000, channels: 1, seconds: 3, kbps: 24))
        let segments = try decode(tone, with: decoder)
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 32000, channels: 1)])
        XCTAssertEqual(segments.first?.frames, decodedFrames(tone, samplesPerFrame: 2048))
        if let segment = segments.first { assertTone(segment, frequency: 660) }
        XCTAssertEqual(decoder.streamInfo?.codec, "HE-AAC")
    }

    func testHEAACv2TurnsItsMonoCoreIntoStereo() throws {
        let decoder = try AACDecoder()
        let tone = try bytes(TestMedia.heAACTone(.heAACv2, frequency: 440, sampleRate: 44100, seconds: 5, kbps: 32))
        // A mono core at 22.05 kHz in the headers; SBR doubles the rate and PS makes it stereo.
        XCTAssertEqual(ADTSHeader(tone, at: 0)?.channelConfiguration, 1)
        let segments = try decode(tone, chunkSizes: [1000], with: decoder)
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(segments.first?.frames, decodedFrames(tone, samplesPerFrame: 2048))
        if let segment = segments.first { assertTone(segment, frequency: 440) }
        XCTAssertEqual(decoder.streamInfo?.codec, "HE-AACv2")
    }

    func testSwitchesBetweenLCAndHEAACv2() throws {
        let decoder = try AACDecoder()
        let lc = try bytes(TestMedia.adtsTone(seconds: 2))
        let he = try bytes(TestMedia.heAACTone(.heAACv2, frequency: 880, seconds: 2, kbps: 32))
        // The HE-AACv2 part has other headers (22.05 kHz mono), so faad is set up again; SBR and PS then bring
        // it back to 44.1 kHz stereo, and the output never changes format.
        let segments = try decode(lc + he, chunkSizes: [1500], with: decoder)
        XCTAssertEqual(segments.map(\.format), [PCMFormat(sampleRate: 44100, channels: 2)])
        XCTAssertEqual(decoder.streamInfo?.codec, "HE-AACv2")
        guard let segment = segments.first else { return }
        XCTAssertEqual(segment.frames, decodedFrames(lc) + decodedFrames(he, samplesPerFrame: 2048))
        let first = Array(segment.samples[(44100 / 5 * 2)..<(44100 * 9 / 5 * 2)])
        let second = Array(segment.samples[(44100 * 11 / 5 * 2)..<(44100 * 19 / 5 * 2)])
        XCTAssertEqual(PCMAnalysis.frequency(first, channels: 2, sampleRate: 44100), 440, accuracy: 3)
        XCTAssertEqual(PCMAnalysis.frequency(second, channels: 2, sampleRate: 44100), 880, accuracy: 3)
    }
}
