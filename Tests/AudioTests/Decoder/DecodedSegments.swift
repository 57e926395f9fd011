import Foundation
import WavedialTestSupport
@testable import Audio

/// What a decoder made of a byte stream fed in chunks: the events in order, and the samples of each
/// format segment (a segment starts at every ``AudioDecoderOutput/newFormat(_:)``).
struct DecodedSegments {
    enum Event: Equatable {
        case title(String)
        case format(PCMFormat)
        /// PCM frames (consecutive reads merged).
        case pcm(frames: Int)
    }

    var events: [Event] = []
    var segments: [(format: PCMFormat, samples: [Int16])] = []
    /// PCM that came before any format (a decoder bug).
    var unformattedBytes = 0

    var titles: [String] { events.compactMap { if case .title(let title) = $0 { return title } else { return nil } } }
    var formats: [PCMFormat] { segments.map(\.format) }
    /// Frames of every segment.
    var frameCounts: [Int] { segments.map { $0.samples.count / $0.format.channels } }
    /// All samples, whatever their format.
    var allSamples: [Int16] { segments.flatMap(\.samples) }

    /// Feeds `bytes` to `decoder` in chunks cycling through `chunkSizes`, reading after every chunk until
    /// the decoder needs more.
    static func decode(_ decoder: AudioDecoder, _ bytes: [UInt8], chunkSizes: [Int] = [4096]) throws -> DecodedSegments {
        var result = DecodedSegments()
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var offset = 0
        var chunk = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSizes[chunk % chunkSizes.count])
            chunk += 1
            try bytes[offset..<end].withUnsafeBytes { try decoder.feed($0) }
            offset = end
            try result.drain(decoder, &output)
        }
        return result
    }

    /// Reads until the decoder needs more bytes.
    mutating func drain(_ decoder: AudioDecoder, _ output: inout [UInt8]) throws {
        var reads = 0
        while true {
            reads += 1
            guard reads < 1_000_000 else { throw FixtureError("the decoder never asked for more bytes") }
            switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
            case .needMore:
                return
            case .title(let title):
                events.append(.title(title))
            case .newFormat(let format):
                events.append(.format(format))
                segments.append((format, []))
            case .pcm(let bytes):
                guard let last = segments.indices.last else {
                    unformattedBytes += bytes
                    continue
                }
                let samples = output.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(bytes / 2)) }
                segments[last].samples += samples
                let frames = samples.count / segments[last].format.channels
                if case .pcm(let before)? = events.last {
                    events[events.count - 1] = .pcm(frames: before + frames)
                } else {
                    events.append(.pcm(frames: frames))
                }
            }
        }
    }

    /// The tone's frequency in segment `index`, from its first channel; 0 when there is no such segment.
    func frequency(ofSegment index: Int) -> Double {
        guard segments.indices.contains(index) else { return 0 }
        let segment = segments[index]
        return PCMAnalysis.frequency(segment.samples, channels: segment.format.channels, sampleRate: segment.format.sampleRate)
    }

    /// The bytes of a test file.
    static func bytes(of url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }
}
