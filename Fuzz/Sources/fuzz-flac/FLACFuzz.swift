import FuzzDriver
import DecoderFuzzing
import Audio

/// The native FLAC decoder (metadata blocks read in Swift, frames by libFLAC in push mode) on hostile
/// bytes: the first byte picks the network chunk size, the rest is the stream.
@_cdecl("fuzz_flac_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzFLAC(UnsafeRawPointer(data), count) }
}

func fuzzFLAC(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard let first = bytes.first else { return 0 }
    guard let decoder = try? FLACDecoder() else { preconditionFailure("libFLAC cannot make a decoder") }
    FuzzDecoding.run(decoder, Array(bytes.dropFirst()), chunk: Int(first) * 16 + 1,
                     longestTitle: 2 * ICYMetadataParser.maximumValueLength + 3)
    return 0
}
