import XCTest
@testable import Audio

final class ICYMetadataParserTests: XCTestCase {
    private func title(_ text: String, padTo length: Int = 0) -> String? {
        var bytes = Array(text.utf8)
        while bytes.count < length { bytes.append(0) }
        return ICYMetadataParser.parse(bytes).title
    }

    func testPlainTitleWithPaddingAndURL() {
        let metadata = ICYMetadataParser.parse(Array("StreamTitle='Artist - Song';StreamUrl='http://x/';".utf8) + [0, 0, 0])
        XCTAssertEqual(metadata.title, "Artist - Song")
        XCTAssertEqual(metadata.url, "http://x/")
    }

    func testQuotesAndSemicolonsInsideTitle() {
        XCTAssertEqual(title("StreamTitle='Guns N' Roses - Don't Cry; Live';StreamUrl='';"),
                       "Guns N' Roses - Don't Cry; Live")
        XCTAssertEqual(title("StreamTitle='It's ';' - the end';"), "It's ';' - the end")
        XCTAssertEqual(title("StreamTitle='Trailing quote'';", padTo: 48), "Trailing quote'")
    }

    /// Fields with unquoted values (ad markers and the like) before or after the title: MPD reads such a
    /// value to the next `;`, mpv finds `StreamTitle='` wherever it is; both show the title.
    func testUnquotedValuesAroundTheTitle() {
        XCTAssertEqual(title("a=b;StreamTitle='foo';"), "foo")
        XCTAssertEqual(title("adw_ad=true;durationMilliseconds=30016;StreamTitle='Artist - Song';StreamUrl='';", padTo: 96),
                       "Artist - Song")
        XCTAssertEqual(title("StreamTitle='Artist - Song';adw_ad=false;"), "Artist - Song")
        XCTAssertEqual(title("StreamTitle='Don't Stop';insertionType=midroll;"), "Don't Stop")
        let metadata = ICYMetadataParser.parse(Array("a=b;StreamTitle='foo';c= d ;".utf8))
        XCTAssertEqual(metadata.fields.map(\.key), ["a", "StreamTitle", "c"])
        XCTAssertEqual(metadata.fields.map(\.value), ["b", "foo", "d"])
    }

    /// What is not a field is skipped to the next `;`; the fields after it still count.
    func testGarbageBeforeAFieldIsSkipped() {
        XCTAssertEqual(title("garbage;StreamTitle='Found';"), "Found")
        XCTAssertEqual(title("=x;'stray';StreamTitle='Found';"), "Found")
        XCTAssertEqual(title("StreamTitle='Semicolons after';;; "), "Semicolons after")
    }

    /// A doubled quote stays as sent: neither MPD nor mpv reads `''` as an escaped quote.
    func testDoubledQuotesAreKept() {
        XCTAssertEqual(title("StreamTitle='It''s';"), "It''s")
        XCTAssertEqual(title("StreamTitle='Rock';n'Roll';"), "Rock';n'Roll")
    }

    /// Titles and names reach terminals and logs: no ESC sequences, no other C0/C1 controls, no bidi
    /// overrides, whether sent raw or as HTML entities.
    func testControlCharactersAndBidiOverridesAreRemoved() {
        XCTAssertEqual(title("StreamTitle='\u{1B}[2J\u{1B}]0;owned\u{07}Artist\u{0D}\u{0A}- Song';"), "[2J ]0;owned Artist  - Song")
        XCTAssertEqual(title("StreamTitle='&#27;[31mRed&#x9b;1m &#x202E;desrever';"), "[31mRed 1m desrever")
        let c1: [UInt8] = Array("StreamTitle='a".utf8) + [0xC2, 0x9B] + Array("b\u{2066}c';".utf8)
        XCTAssertEqual(ICYMetadataParser.parse(c1).title, "a bc")
        let response = StreamResponse(statusCode: 200, url: "http://x/", contentType: nil,
                                      headers: ["icy-name": "\u{1B}[1mBold FM\u{1B}[0m"])
        XCTAssertEqual(response.name, "[1mBold FM [0m")
    }

    func testEmptyTitleMeansNoTitle() {
        XCTAssertNil(title("StreamTitle='';"))
        XCTAssertNil(title("StreamUrl='x';"))
    }

    func testUTF8AndLatin1AndWindows1252() {
        XCTAssertEqual(title("StreamTitle='Привет – Café';"), "Привет – Café")
        // In typed parts: as one sum, Swift 6.0's type checker gives up on it.
        let cafe: [UInt8] = Array("StreamTitle='Caf".utf8) + [0xE9]
        let euroAndQuote: [UInt8] = [0x80, 0x93]  // Windows-1252
        let latin1: [UInt8] = cafe + Array(" ".utf8) + euroAndQuote + Array("';".utf8)
        XCTAssertEqual(ICYMetadataParser.parse(latin1).title, "Café €“")
    }

    func testHTMLEntities() {
        XCTAssertEqual(title("StreamTitle='Simon &amp; Garfunkel &#1044;&#x44; &quot;x&quot; &bogus; & done';"),
                       "Simon & Garfunkel ДD \"x\" &bogus; & done")
    }

    func testMalformedAndHugeBlocksAreBounded() {
        XCTAssertNil(title("garbage without any key"))
        XCTAssertEqual(title("StreamTitle='no closing quote"), "no closing quote")
        let huge = "StreamTitle='" + String(repeating: "x", count: 5000) + "';"
        let parsed = ICYMetadataParser.parse(Array(huge.utf8)).title
        XCTAssertNotNil(parsed)
        XCTAssertLessThanOrEqual(parsed!.count, ICYMetadataParser.maximumValueLength)
        let random = (0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        _ = ICYMetadataParser.parse(random)
    }
}
