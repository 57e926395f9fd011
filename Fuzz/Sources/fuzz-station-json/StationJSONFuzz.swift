import FuzzDriver
import RadioBrowser

/// A Radio Browser catalog download on hostile bytes: split as it streams (in chunks the first
/// byte picks), each record read leniently. Errors are fine; crashes and hangs are not, nor a record
/// kept without a UUID or with a text past its limit.
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
                    typealias L = RadioBrowserStation.FieldLimits
                    precondition(station.stationuuid.utf8.count == 36 && !station.url.isEmpty)
                    precondition(station.url.count <= L.url && station.urlResolved.count <= L.url)
                    precondition(station.name.count <= RadioBrowserStation.maximumNameLength || station.name == station.url)
                    precondition(station.homepage.count <= L.link && station.favicon.count <= L.link && station.tags.count <= L.tags)
                    precondition(station.country.count <= L.place && station.state.count <= L.place)
                    precondition(station.language.count <= L.place && station.languagecodes.count <= L.place)
                    precondition(station.codec.count <= L.codec && station.countrycode.count <= L.countryCode)
                    precondition(station.lastchangetime.count <= L.timestamp)
                }
            }
            offset = end
        }
        try splitter.finish()
    } catch {}
    return 0
}
