import FuzzDriver
import Audio

/// The ICY demuxer and title parser on a hostile stream: the first byte picks `icy-metaint`,
/// the second the network chunk size; the rest is the stream.
@_cdecl("fuzz_icy_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzICY(UnsafeRawPointer(data), count) }
}

func fuzzICY(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 2 else { return 0 }
    let metaint = Int(bytes[0]) + 1
    let chunk = Int(bytes[1]) + 1
    let stream = UnsafeRawBufferPointer(rebasing: bytes[2...])
    var demuxer = ICYDemuxer(metaint: metaint)
    var audio = 0
    var metadata = 0
    var offset = 0
    while offset < stream.count {
        let end = min(offset + chunk, stream.count)
        demuxer.push(UnsafeRawBufferPointer(rebasing: stream[offset..<end]), audio: { audio += $0.count }) { block in
            metadata += block.count + 1
            let parsed = ICYMetadataParser.parse(block)
            // Titles are bounded whatever the block says, and never carry a control character or a
            // bidi control to a terminal, however it came (raw, or as an entity: `&#27;`, `&#x9b;`).
            precondition((parsed.title?.count ?? 0) <= ICYMetadataParser.maximumValueLength)
            for field in parsed.fields {
                precondition(!field.value.unicodeScalars.contains { scalar in
                    switch scalar.value {
                    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
                    default: return false
                    }
                })
            }
        }
        offset = end
    }
    // Every byte is audio, a metadata length byte or block content; nothing is invented.
    precondition(audio + metadata <= stream.count)
    return 0
}
