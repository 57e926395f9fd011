import FuzzDriver
import Audio

/// The fMP4 audio demuxer on hostile boxes: the first two bytes say how much of the rest is the
/// initialization section (`EXT-X-MAP`), the remainder is one media segment.
@_cdecl("fuzz_fmp4_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzFMP4(UnsafeRawPointer(data), count) }
}

func fuzzFMP4(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    guard bytes.count >= 2 else { return 0 }
    let split = min(Int(bytes[0]) << 8 | Int(bytes[1]), bytes.count - 2)
    let initialization = Array(bytes[2..<(2 + split)])
    let segment = Array(bytes[(2 + split)...])
    var demuxer = FMP4AudioDemuxer()
    demuxer.readInitialization(initialization)
    var audio = 0
    demuxer.push(segment: segment) { output in
        if case .audio(let encoding, let data) = output {
            precondition(encoding == demuxer.audioEncoding || demuxer.audioEncoding == nil)
            audio += data.count
        }
        return true
    }
    precondition(audio <= FMP4AudioDemuxer.outputBound(segmentLength: segment.count))
    return 0
}
