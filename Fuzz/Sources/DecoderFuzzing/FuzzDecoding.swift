import Audio

/// Drives an ``AudioDecoder`` over a hostile stream the way the audio loop does (feed a chunk, read
/// until it needs more) and checks what the seam promises: PCM only after a format, whole frames that
/// fit the buffer, bounded titles, and a read loop that ends.
public enum FuzzDecoding {
    public static func run(_ decoder: AudioDecoder, _ stream: [UInt8], chunk: Int, longestTitle: Int) {
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var format: PCMFormat?
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + chunk)
            do {
                try stream[offset..<end].withUnsafeBytes { try decoder.feed($0) }
            } catch {
                preconditionFailure("feed threw \(error)")
            }
            offset = end
            var reads = 0
            reading: while true {
                reads += 1
                precondition(reads < 100_000, "the decoder never asked for more bytes")
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore:
                    break reading
                case .newFormat(let new):
                    precondition(new.sampleRate > 0 && (1...8).contains(new.channels), "format \(new)")
                    format = new
                case .title(let title):
                    precondition(title.count <= longestTitle)
                case .pcm(let bytes):
                    guard bytes > 0 else { continue }
                    guard let format else { preconditionFailure("PCM before any format") }
                    precondition(bytes <= output.count && bytes % format.bytesPerFrame == 0, "\(bytes) bytes in \(format)")
                }
            }
            if let info = decoder.streamInfo { precondition(info.bitrate >= 0) }
        }
    }
}
