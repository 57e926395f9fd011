import WavedialCore
import XCTest

/// The station made of a URL typed with `tune URL`: what counts as a URL, what is refused, and the name,
/// which shows host, port and path but never a password or a control character.
final class TypedStationTests: XCTestCase {
    func testURLsAreToldFromFrequenciesAndNames() {
        for url in ["http://example.com/live", "HTTPS://example.com", "ftp://example.com/x", "http:", "https:live", "file:///etc/passwd"] {
            XCTAssertTrue(TypedStation.isURL(url), url)
        }
        for text in ["94.1", "Radio Bob 101.5", "WDR 2: Rheinland", "Jazz://", "://x", "httpx", "00000000-0000-4000-8000-0000000000a1"] {
            XCTAssertFalse(TypedStation.isURL(text), text)
        }
    }

    func testTheStationHasTheImportsIdANameFromTheURLAndNoCodec() throws {
        let url = "http://192.168.1.20:8000/live.mp3?token=abc"
        let station = try TypedStation.station(url: url)
        XCTAssertEqual(station.stationuuid, FavoritesFile.syntheticUUID(for: url))
        XCTAssertEqual(station.url, url)
        XCTAssertEqual(station.name, "192.168.1.20:8000/live.mp3")
        XCTAssertEqual(station.codec, "")
        XCTAssertEqual(try TypedStation.station(url: "https://radio.example/").name, "radio.example")
        XCTAssertEqual(try TypedStation.station(url: "http://[fd00::20]:8000/live").name, "[fd00::20]:8000/live")
    }

    func testTheNameHoldsNoPasswordAndNoControlCharacter() throws {
        XCTAssertEqual(try TypedStation.station(url: "http://listener:secret@home.lan:8000/live").name, "home.lan:8000/live")
        let name = try TypedStation.station(url: "http://home.lan/a%1B%5B2Jb%E2%80%AEc").name
        XCTAssertFalse(name.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, name)
    }

    func testWhatIsNoHTTPURLIsRefusedWithTheReason() {
        let refusals: [(String, TypedStation.URLError)] = [
            ("ftp://example.com/x", .unsupportedScheme("ftp")),
            ("http://", .noHost),
            ("https:live", .noHost),
            ("http://exa mple.com/", .notPlainASCII),
            ("http://example.com/\u{7F}", .notPlainASCII),
            ("http://exämple.com/", .notPlainASCII),
            ("http://example.com/" + String(repeating: "a", count: TypedStation.maximumURLLength), .tooLong),
        ]
        for (url, reason) in refusals {
            XCTAssertThrowsError(try TypedStation.station(url: url), url) { XCTAssertEqual($0 as? TypedStation.URLError, reason, url) }
        }
        XCTAssertNoThrow(try TypedStation.station(url: "http://example.com/" + String(repeating: "a", count: TypedStation.maximumURLLength - 19)))
    }
}
