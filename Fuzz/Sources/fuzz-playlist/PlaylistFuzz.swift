import FuzzDriver
import Audio

/// The playlist parser on a hostile body: the first byte picks .pls or .m3u.
@_cdecl("fuzz_playlist_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzPlaylist(UnsafeRawPointer(data), count) }
}

func fuzzPlaylist(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard let first = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    let entries = PlaylistResolver.entries(in: body, kind: first & 1 == 0 ? .pls : .m3u, baseURL: "http://radio.example/lists/a.pls")
    for entry in entries { precondition(!entry.isEmpty) }
    return 0
}
