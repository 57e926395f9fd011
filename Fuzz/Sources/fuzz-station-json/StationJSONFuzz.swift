import FuzzDriver
import RadioBrowser

/// A Radio Browser catalog download on hostile bytes: split as it streams (in chunks the first
/// byte picks), each record read leniently. Errors are fine; crashes and hangs are not.
@_cdecl("fuzz_station_json_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzStationJSON(UnsafeRawPointer(data), count) }
}

func fuzzStationJSON(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard let first = bytes.first else { return 0 }
    let chunk = Int(first) + 1
    var splitter = JSONArraySplitter(maximumElementSize: 64 * 1024)
    var offset = 1
    do {
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            try splitter.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { element in
                // An element starts an object; mismatched brackets are left for the JSON reader to refuse.
                precondition(element.first == UInt8(ascii: "{"))
                if let station = try? RadioBrowserStation.decode(element) {
                    precondition(!station.stationuuid.isEmpty && !station.url.isEmpty)
                }
            }
            offset = end
        }
        try splitter.finish()
    } catch {}
    return 0
}
