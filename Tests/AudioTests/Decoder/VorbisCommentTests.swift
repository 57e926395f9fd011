import XCTest
@testable import Audio

final class VorbisCommentTests: XCTestCase {
    private func parse(_ fields: [String], vendor: String = "Lavf") -> VorbisComment {
        VorbisComment.parse(OggTestPages.commentBody(vendor: vendor, fields: fields))
    }

    func testArtistAndTitleReadAsICYStreamTitlesDo() {
        XCTAssertEqual(parse(["ENCODER=x", "title=Song", "Artist=Band", "ALBUM=A"]).displayTitle, "Band - Song")
        XCTAssertEqual(parse(["TITLE=Song"]).displayTitle, "Song")
        XCTAssertEqual(parse(["ARTIST=Band"]).displayTitle, "Band")
        XCTAssertNil(parse(["ALBUM=Album", "TITLE=", "ARTIST=   "]).displayTitle)
        XCTAssertNil(parse([]).displayTitle)
    }

    func testTheFirstOfRepeatedFieldsIsKept() {
        XCTAssertEqual(parse(["ARTIST=One", "ARTIST=Two", "TITLE=Song", "TITLE=Other"]).displayTitle, "One - Song")
    }

    func testKeysMustMatchWholly() {
        XCTAssertNil(parse(["TITLES=x", "SUBTITLE=y", "ARTISTSORT=z", "TITLE", "=TITLE"]).displayTitle)
    }

    func testControlAndBidiOverrideCharactersLeaveTheTitle() {
        let comment = parse(["TITLE=Line\none\u{0}\u{7F}\u{85}end", "ARTIST=\u{202E}Band\u{2066}\t"])
        XCTAssertEqual(comment.title, "Line one   end")
        XCTAssertEqual(comment.artist, "Band")
    }

    func testTextIsUTF8ElseWindows1252() {
        XCTAssertEqual(parse(["TITLE=Café 日本"]).title, "Café 日本")
        var body = OggTestPages.commentBody(fields: ["TITLE=Caf?"])
        body[body.count - 1] = 0xE9  // Latin-1 é: not UTF-8
        XCTAssertEqual(VorbisComment.parse(body).title, "Café")
    }

    func testAnOverlongValueIsCut() {
        let title = parse(["TITLE=" + String(repeating: "x", count: 100_000)]).title
        XCTAssertEqual(title?.count, ICYMetadataParser.maximumValueLength)
    }

    func testLengthsAndCountsBeyondTheBytesAreNotTrusted() {
        let body = OggTestPages.commentBody(fields: ["TITLE=Song", "ARTIST=Band"])
        // Vendor length past the end.
        XCTAssertNil(VorbisComment.parse(OggTestPages.bytes(0xFFFF_FFFF, 4) + Array(body[4...])).displayTitle)
        // A count of four billion over two fields: both read, and nothing more.
        let hugeCount = Array(body[0..<8]) + OggTestPages.bytes(0xFFFF_FFFF, 4) + Array(body[12...])
        XCTAssertEqual(VorbisComment.parse(hugeCount).displayTitle, "Band - Song")
        // The second field's length runs past the end: the first is kept.
        XCTAssertEqual(VorbisComment.parse(Array(body.dropLast(1))).displayTitle, "Song")
        // Cut inside a length field, or nothing at all.
        XCTAssertEqual(VorbisComment.parse(Array(body[0..<14])), VorbisComment())
        XCTAssertEqual(VorbisComment.parse([]), VorbisComment())
    }

    func testAtMostMaximumFieldsAreLookedAt() {
        let filler = [String](repeating: "X=y", count: VorbisComment.maximumFields)
        XCTAssertNil(parse(filler + ["TITLE=Late"]).title)
        XCTAssertEqual(parse(Array(filler.dropFirst()) + ["TITLE=Last"]).title, "Last")
    }
}
