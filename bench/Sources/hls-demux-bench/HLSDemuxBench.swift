import Audio
import Glibc

/// CPU time of taking the audio out of an HLS container with Wavedial's demuxers, for docs/BENCHMARKS.md
/// (bench/hls/run.sh sets it against `ffmpeg -c copy -f adts`, libavformat's demuxers).
///
/// Usage: hls-demux-bench FILE ts|fmp4 [PASSES]. Reads FILE into memory, demuxes it PASSES times (default 20),
/// prints the CPU seconds of one pass and the audio bytes it gave.
@main
struct HLSDemuxBench {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let file = fopen(arguments[1], "rb") else {
            fputs("usage: hls-demux-bench FILE ts|fmp4 [PASSES]\n", stderr)
            exit(2)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        fclose(file)
        let passes = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
        var audio = 0
        let start = cpuSeconds()
        for _ in 0..<passes {
            audio = 0
            let count = { (output: DemuxedOutput) -> Bool in
                if case .audio(_, let data) = output { audio += data.count }
                return true
            }
            if arguments[2] == "fmp4" {
                var demuxer = FMP4AudioDemuxer()
                demuxer.push(segment: bytes, output: count)
            } else {
                var demuxer = MPEGTSDemuxer()
                // As the reader hands it on: a segment at a time; 1 s of 64 kbit/s TS is about 9 KB.
                var offset = 0
                while offset < bytes.count {
                    let end = min(offset + 9400, bytes.count)
                    bytes[offset..<end].withUnsafeBytes { _ = demuxer.push($0, output: count) }
                    offset = end
                }
                demuxer.flush(output: count)
            }
        }
        let perPass = (cpuSeconds() - start) / Double(passes)
        print("\(arguments[2]) \(bytes.count) bytes in, \(audio) audio bytes out, \(perPass * 1000) ms CPU a pass")
    }

    /// User and system CPU of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
