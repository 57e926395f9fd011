import Audio
import Foundation

/// Decodes a file as the audio thread would (4096-byte feeds, reads until `.needMore`) and prints the CPU
/// time it took (user + system, from `getrusage`), for docs/BENCHMARKS.md. bench/decoders/run.sh compares it
/// with ffmpeg's decoder. Run: `swift run -c release --package-path bench decoder-bench ENCODING FILE` (ENCODING: mpeg, adts, ...).
@main
enum DecoderBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let encoding = AudioEncoding(rawValue: arguments[1]),
              let file = fopen(arguments[2], "rb") else {
            fputs("usage: decoder-bench ENCODING FILE   (ENCODING: \(AudioEncoding.allCases.map(\.rawValue).joined(separator: ", ")))\n", stderr)
            exit(2)
        }
        defer { fclose(file) }
        let decoder = try AudioDecoders.make(for: encoding)
        var input = [UInt8](repeating: 0, count: 4096)
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var format: PCMFormat?
        var frames = 0
        let start = cpuSeconds()
        while true {
            let count = input.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            guard count > 0 else { break }
            try input.withUnsafeBytes { try decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            reading: while true {
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore: break reading
                case .newFormat(let new): format = new
                case .pcm(let bytes): frames += bytes / (format?.bytesPerFrame ?? 4)
                case .title: break
                }
            }
        }
        let cpu = cpuSeconds() - start
        guard let format else {
            fputs("decoder-bench: nothing decoded\n", stderr)
            exit(1)
        }
        let audio = Double(frames) / Double(format.sampleRate)
        let info = decoder.streamInfo.map { "\($0.codec) \($0.bitrate) kbit/s" } ?? "?"
        print("\(info), \(format): \(String(format: "%.2f", audio)) s of audio in \(String(format: "%.3f", cpu)) s CPU "
              + "(\(String(format: "%.1f", cpu / audio * 100)) % of real time)")
    }

    /// User plus system CPU seconds of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
