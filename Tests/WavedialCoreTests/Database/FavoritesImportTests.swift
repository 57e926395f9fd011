import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// Favorites imported from a file are hostile input: they are stored clean.
final class FavoritesImportTests: XCTestCase {
    private typealias F = StationFixtures

    func testImportedStationsAreStoredWithoutControlOrBidiCharactersAndWithPossibleValues() throws {
        let database = try WavedialDatabase.inMemory()
        var station = F.station(" 11111111-0000-4000-8000-0000000000AA\u{1B}", "\u{1B}]0;pwned\u{07}Evil \u{202E}FM\u{9B}31m\u{200F}")
        station.url = "http://evil.example/\u{1B}[5mlive\u{061C}"
        station.tags = "rock\u{85}\u{2066}x\u{2069}"
        station.geoLat = 1e300
        station.geoLong = -.infinity
        station.bitrate = -5
        var long = F.station("11111111-0000-4000-8000-0000000000ab", String(repeating: "Ω", count: 5_000))
        long.url = "http://long.example/"
        XCTAssertEqual(try database.importFavorites([.station(station), .station(long)]), 2)

        let stored = try database.favorites().map(\.snapshot)
        XCTAssertEqual(stored.map(\.stationuuid), ["11111111-0000-4000-8000-0000000000aa", "11111111-0000-4000-8000-0000000000ab"])
        XCTAssertEqual(stored[0].name, "]0;pwned Evil FM 31m")
        XCTAssertEqual(stored[0].url, "http://evil.example/ [5mlive")
        XCTAssertEqual(stored[0].tags, "rock x")
        XCTAssertNil(stored[0].geoLat)
        XCTAssertNil(stored[0].geoLong)
        XCTAssertEqual(stored[0].bitrate, 0)
        XCTAssertEqual(stored[1].name, String(repeating: "Ω", count: Station.maximumNameLength - 1) + "…")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), stored.map(\.stationuuid))
        // The same file again adds nothing: the cleaned uuid is the key.
        XCTAssertEqual(try database.importFavorites([.station(station), .station(long)]), 0)
    }
}
