import FuzzDriver
import Audio

/// The MPEG-TS demuxer on a hostile stream: the first byte picks the chunk size, the rest is the stream
/// (a seed made of real 188-byte packets keeps the fuzzer inside the packet structure).
@_cdecl("fuzz_mpegts_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzMPEGTS(UnsafeRawPointer(data), count) }
}

func fuzzMPEGTS(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 1 else { return 0 }
    let chunk = Int(bytes[0]) * 4 + 1
    let stream = UnsafeRawBufferPointer(rebasing: bytes[1...])
    var demuxer = MPEGTSDemuxer()
    var audio = 0
    let collect = { (output: DemuxedOutput) -> Bool in
        switch output {
        case .audio(_, let data): audio += data.count
        case .title(let title): precondition(title.count <= 1024 && !title.isEmpty)
        }
        return true
    }
    var offset = 0
    while offset < stream.count {
        let end = min(offset + chunk, stream.count)
        demuxer.push(UnsafeRawBufferPointer(rebasing: stream[offset..<end]), output: collect)
        offset = end
    }
    demuxer.flush(output: collect)
    // Audio is payload with its headers stripped: never more than came in.
    precondition(audio <= stream.count)
    return 0
}
