import Foundation
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// A favorites file written back in parts (what the CLI sends a running daemon): each part is a file `parse`
/// reads, and the parts read together are the entries, in order.
final class FavoritesFilePartsTests: XCTestCase {
    func testPartsReadBackAsTheEntriesInOrderAndStayNearTheirSize() throws {
        let stations: [FavoritesFile.Entry] = (0..<40).map {
            .station(Station(stationuuid: "00000000-0000-4000-8000-\(String(format: "%012d", $0))", name: "Station “\($0)”, FM",
                             url: "http://stream.example/\($0)?a=\"b\""))
        }
        let streams: [FavoritesFile.Entry] = (0..<30).map { .stream(url: "https://radio.example/\($0).mp3", name: $0 % 3 == 0 ? nil : "Radio, \($0)") }
        for entries in [stations, streams, stations + streams] {
            let parts = FavoritesFile.texts(of: entries, maximumBytes: 1024)
            XCTAssertGreaterThan(parts.count, 1)
            var read: [FavoritesFile.Entry] = []
            for part in parts {
                read += try FavoritesFile.parse(Data(part.utf8))
            }
            XCTAssertEqual(read, entries)
            // One entry past the size at most.
            XCTAssertLessThan(parts.map(\.utf8.count).max() ?? 0, 1024 + 600)
        }
        XCTAssertEqual(FavoritesFile.texts(of: [], maximumBytes: 1024), [])
    }
}
