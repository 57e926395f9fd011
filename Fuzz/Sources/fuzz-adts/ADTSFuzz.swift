import FuzzDriver
import Audio

/// The ADTS framer and libfaad2 on a hostile stream: the first byte picks the network chunk size, the rest
/// is the stream, fed to an ``AACDecoder`` and read until it wants more, as the audio thread does.
@_cdecl("fuzz_adts_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzADTS(UnsafeRawPointer(data), count) }
}

private let decoder = try! AACDecoder()
private var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)

func fuzzADTS(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 1 else { return 0 }
    let chunk = Int(bytes[0]) * 8 + 1
    let stream = UnsafeRawBufferPointer(rebasing: bytes[1...])
    try! decoder.restart()
    var format: PCMFormat?
    var offset = 0
    while offset < stream.count {
        let end = min(offset + chunk, stream.count)
        try! decoder.feed(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
        offset = end
        var reads = 0
        reading: while true {
            reads += 1
            // Every read but the one after a new format uses up a frame (8 bytes at least): the loop ends.
            precondition(reads <= stream.count + 2, "read() keeps returning without using bytes")
            switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
            case .needMore:
                break reading
            case .newFormat(let new):
                precondition(new.channels >= 1 && new.channels <= 64 && new.sampleRate >= 8000 && new.sampleRate <= 192_000,
                             "impossible format \(new)")
                format = new
            case .pcm(let bytes):
                guard let format else { preconditionFailure("PCM before a format") }
                precondition(bytes >= 0 && bytes <= output.count && bytes % format.bytesPerFrame == 0, "torn PCM: \(bytes) bytes")
            case .title:
                preconditionFailure("ADTS carries no titles")
            }
        }
    }
    if let info = decoder.streamInfo {
        precondition(["AAC", "HE-AAC", "HE-AACv2"].contains(info.codec) && info.bitrate >= 0, "stream info \(info)")
    }
    return 0
}
