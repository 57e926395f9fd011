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
