import FuzzDriver
import Audio

/// ID3v2 title extraction and packed-audio demuxing on a hostile tag.
@_cdecl("fuzz_id3_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzID3(UnsafeRawPointer(data), count) }
}

func fuzzID3(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    if let title = ID3Tag.title(in: bytes) {
        // Bounded, and nothing a display would take for a command.
        precondition(!title.isEmpty && title.count <= ICYMetadataParser.maximumValueLength)
        precondition(!title.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }
    if let length = ID3Tag.length(ofTagAt: bytes) { precondition(length >= ID3Tag.headerLength) }
    var audio = 0
    _ = PackedAudioDemuxer.demux(bytes) { output in
        if case .audio(_, let data) = output { audio += data.count }
        return true
    }
    precondition(audio <= bytes.count)
    return 0
}
