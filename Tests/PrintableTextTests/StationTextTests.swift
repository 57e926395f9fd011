import PrintableText
import XCTest

/// The one cleaner every text from outside passes through before a terminal or the LCD sees it.
final class StationTextTests: XCTestCase {
    /// Every scalar a terminal acts on (C0, DEL, C1) or that reorders text (the Bidi_Control set), written
    /// out here rather than taken from the code under test.
    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    func testControlCharactersBecomeSpacesAndBidiControlsLeave() {
        XCTAssertEqual(StationText.printable("\u{1B}]0;pwned\u{07}Evil FM"), " ]0;pwned Evil FM")
        XCTAssertEqual(StationText.printable("a\u{9B}31mb\u{7F}c\u{0}d"), "a 31mb c d")
        XCTAssertEqual(StationText.printable("\u{202E}FM\u{202C} \u{2067}x\u{2069}"), "FM x")
        XCTAssertEqual(StationText.printable("left\u{200E}right\u{200F} arabic\u{061C}mark"), "leftright arabicmark")
    }

    func testEveryUnprintableScalarIsGoneAndTheRestIsKept() {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)...0x2100 {
            if let scalar = Unicode.Scalar(value) { all.append(scalar) }
        }
        let cleaned = StationText.printable(String(all))
        let left = cleaned.unicodeScalars.filter(Self.isUnprintable).map { String($0.value, radix: 16) }
        XCTAssertEqual(left, [], "unprintable scalars left")
        let kept = all.filter { !Self.isUnprintable($0) && $0 != " " }
        XCTAssertTrue(cleaned.unicodeScalars.filter { $0 != " " }.elementsEqual(kept), "every other scalar kept, in order")
        for value in UInt32(0)...0x2100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(StationText.isUnprintable(scalar), Self.isUnprintable(scalar), "U+\(String(value, radix: 16))")
        }
    }

    func testPlainTextIsReturnedAsItIs() {
        for text in ["", "Radio Eins - Song", "Ünïcødé 東京 FM 🎵", "\u{0D4E}x \u{0600}1"] {
            XCTAssertEqual(StationText.printable(text), text)
        }
    }

    func testIsPrintableAnswersWithoutCopying() {
        XCTAssertTrue(StationText.isPrintable("Radio 東京"))
        XCTAssertFalse(StationText.isPrintable("Radio\u{1B}[2J"))
        XCTAssertFalse(StationText.isPrintable("Radio\u{200F}"))
    }
}
