import Audio
import Glibc

/// Decodes a file the way the audio thread does (4096-byte feeds, reads until the decoder needs more)
/// and throws the PCM away, so bench/decoders/run.sh can time the decoding against ffmpeg's.
/// Usage: decoder-bench ogg|flac|mpeg FILE. Prints the audio seconds and frames decoded.
@main
enum DecoderBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let encoding = AudioEncoding(rawValue: arguments[1]) else {
            fputs("usage: decoder-bench ogg|flac|mpeg FILE\n", stderr)
            exit(64)
        }
        guard let file = fopen(arguments[2], "rb") else {
            fputs("decoder-bench: cannot open \(arguments[2])\n", stderr)
            exit(66)
        }
        defer { fclose(file) }
        let decoder = try AudioDecoders.make(for: encoding)
        var input = [UInt8](repeating: 0, count: 4096)
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var format: PCMFormat?
        var frames = 0
        var seconds = 0.0
        while true {
            let count = input.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            guard count > 0 else { break }
            try input.withUnsafeBytes { try decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            reading: while true {
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore: break reading
                case .newFormat(let new): format = new
                case .title: continue
                case .pcm(let bytes):
                    guard let format else { continue }
                    frames += bytes / format.bytesPerFrame
                    seconds += Double(bytes / format.bytesPerFrame) / Double(format.sampleRate)
                }
            }
        }
        let codec = decoder.streamInfo.map { "\($0.codec) \($0.bitrate) kbit/s" } ?? "nothing decoded"
        print("\(codec): \(frames) frames, \(seconds) s")
    }
}
