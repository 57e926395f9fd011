import FuzzDriver
import Audio

/// The HLS playlist parser and variant selection on a hostile playlist.
@_cdecl("fuzz_hls_playlist_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzHLSPlaylist(UnsafeRawPointer(data), count) }
}

func fuzzHLSPlaylist(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    switch HLSPlaylist.parse(bytes, url: "http://station.example/live/index.m3u8") {
    case nil:
        break
    case .master(let master)?:
        precondition(master.variants.count <= HLSPlaylist.maximumStreams && master.renditions.count <= HLSPlaylist.maximumStreams)
        for limit in [nil, 0, 128_000] {
            if case .choices(let choices) = HLSVariantSelection.choices(in: master, maximumBandwidth: limit) {
                precondition(!choices.isEmpty && Set(choices.map(\.playlistURL)).count == choices.count)
                precondition(choices.allSatisfy { $0.playlistURL.lowercased().hasPrefix("http") })
            }
        }
    case .media(let media)?:
        precondition(media.segments.count <= HLSPlaylist.maximumSegments)
        precondition(media.targetDuration >= 1 && media.targetDuration <= HLSPlaylist.maximumDuration)
        precondition(media.mediaSequence >= 0 && media.mediaSequence <= HLSPlaylist.maximumMediaSequence)
        // Numbered one by one, every duration believable, byte ranges inside what a resource can be.
        for (segment, next) in zip(media.segments, media.segments.dropFirst()) { precondition(next.sequence == segment.sequence + 1) }
        for segment in media.segments {
            precondition(segment.duration >= 0 && segment.duration <= HLSPlaylist.maximumDuration)
            if let range = segment.byteRange { precondition(range.length > 0 && range.offset >= 0) }
            if case .aes128? = segment.key?.method { precondition(segment.key?.uri != nil && (segment.key?.iv?.count ?? 16) == 16) }
        }
        let edge = media.liveEdgeSequence
        precondition(edge >= media.mediaSequence && edge <= media.nextSequence)
    }
    return 0
}
