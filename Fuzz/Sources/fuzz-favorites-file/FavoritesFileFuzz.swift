import FuzzDriver
import Foundation
import WavedialCore

/// A favorites file to import, on hostile bytes: JSON as `fav export` writes it or M3U. It is refused
/// with an error or read into at most 1000 entries, each with a uuid and a URL, none holding a control
/// or bidi character; a playlist's URLs all have a scheme.
@_cdecl("fuzz_favorites_file_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzFavoritesFile(UnsafeRawPointer(data), count) }
}

func fuzzFavoritesFile(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: data, count: count))
    guard let entries = try? FavoritesFile.parse(bytes) else { return 0 }
    precondition((1...FavoritesFile.maximumEntries).contains(entries.count))
    for entry in entries {
        switch entry {
        case .station(let station):
            precondition(!station.stationuuid.isEmpty && !station.url.isEmpty)
            precondition(station.name.count <= Station.maximumNameLength)
            for text in [station.stationuuid, station.name, station.url, station.urlResolved, station.homepage, station.favicon,
                         station.tags, station.country, station.countrycode, station.state, station.language,
                         station.languagecodes, station.codec, station.lastchangetime] {
                precondition(isPrintable(text), "\(text.debugDescription)")
            }
            precondition(station.geoLat.map { $0.isFinite && abs($0) <= 90 } ?? true)
            precondition(station.geoLong.map { $0.isFinite && abs($0) <= 180 } ?? true)
        case .stream(let url, let name):
            precondition(url.contains("://") && isPrintable(url), url.debugDescription)
            precondition(isPrintable(name ?? ""), (name ?? "").debugDescription)
        }
    }
    return 0
}

/// No C0, DEL or C1 control and no bidi control (written out here, not taken from the code under test).
private func isPrintable(_ text: String) -> Bool {
    !text.unicodeScalars.contains { scalar in
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
