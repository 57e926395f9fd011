import WavedialTestSupport
import XCTest

@testable import WavedialCore

final class SearchTests: XCTestCase {
    private typealias F = StationFixtures
    private var database: WavedialDatabase!

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [
            F.station("1", "Café del Mar", country: "FR", tags: "chillout,lounge", language: "french", votes: 50),
            F.station("2", "Jazz Café Berlin", country: "DE", tags: "jazz,smooth jazz", language: "german", votes: 10),
            F.station("3", "𝔅𝔲𝔷𝔷𝔦𝔫 ℜ𝔞𝔡𝔦𝔬", country: "US", tags: "hits"),
            F.station("4", "Радио Шансон", country: "RU", tags: "шансон", language: "russian"),
            F.station("5", "Jazz WMA Only", country: "DE", codec: "WMA", tags: "jazz", votes: 999),
            F.station("6", "Österreich Eins", country: "AT", tags: "news,talk", language: "german"),
            F.station("7", "Rock \"Quote\" (Radio) AND OR NOT*", country: "DE", tags: "rock"),
        ])
    }

    private func names(_ query: StationQuery) throws -> [String] { try database.search(query).map(\.name) }

    func testCaseAndDiacriticInsensitive() throws {
        XCTAssertEqual(try names(.init(text: "cafe")), ["Café del Mar", "Jazz Café Berlin"])
        XCTAssertEqual(try names(.init(text: "CAFÉ")), ["Café del Mar", "Jazz Café Berlin"])
        XCTAssertEqual(try names(.init(text: "osterreich")), ["Österreich Eins"])
    }

    func testCompatibilityFormsAndOtherScripts() throws {
        XCTAssertEqual(try names(.init(text: "buzzin")), ["𝔅𝔲𝔷𝔷𝔦𝔫 ℜ𝔞𝔡𝔦𝔬"])
        XCTAssertEqual(try names(.init(text: "радио")), ["Радио Шансон"])
        XCTAssertEqual(try names(.init(text: "РАДИО шан")), ["Радио Шансон"])
    }

    func testAllWordsArePrefixes() throws {
        XCTAssertEqual(try names(.init(text: "jazz caf")), ["Jazz Café Berlin"])
        XCTAssertEqual(try names(.init(text: "del m")), ["Café del Mar"])
        XCTAssertEqual(try names(.init(text: "jazz zzz")), [])
    }

    func testFilters() throws {
        XCTAssertEqual(try names(.init(tag: "jazz")), ["Jazz Café Berlin", "Jazz WMA Only"], "playable first, then votes")
        XCTAssertEqual(try names(.init(country: "de", limit: 10)).sorted(),
                       ["Jazz Café Berlin", "Jazz WMA Only", "Rock \"Quote\" (Radio) AND OR NOT*"])
        XCTAssertEqual(try names(.init(country: "France")), ["Café del Mar"])
        XCTAssertEqual(try names(.init(country: "the russian federation")), ["Радио Шансон"])
        XCTAssertEqual(try names(.init(language: "German")).sorted(), ["Jazz Café Berlin", "Österreich Eins"])
        XCTAssertEqual(try names(.init(text: "cafe", tag: "jazz", country: "DE", language: "german")), ["Jazz Café Berlin"])
        XCTAssertEqual(try names(.init(text: "cafe", country: "AT")), [])
    }

    func testQuerySyntaxInUserInputIsJustText() throws {
        XCTAssertEqual(try names(.init(text: "\"quote\" (radio) AND OR NOT*")), ["Rock \"Quote\" (Radio) AND OR NOT*"])
        XCTAssertEqual(try names(.init(text: "NEAR(")), [])
        XCTAssertEqual(try names(.init(text: "*** ---")), [])
        XCTAssertEqual(try names(.init(text: "")), [])
    }

    /// A prepended concatenation mark (U+0D4E MALAYALAM LETTER DOT REPH, U+0600–U+0605, U+06DD, U+110BD)
    /// makes one grapheme with what follows it, a quote or a space included: split per Character, user
    /// text carried `"` and spaces into the query (syntax errors, or its own `OR`, `NEAR` and column
    /// filters). Any text is a valid query of words that must all be in the field, whatever it holds.
    func testPrependedMarksQuotesAndOperatorsInUserTextNeverBecomeQuerySyntax() throws {
        let hostile = [
            "\u{0D4E}\" OR name:x", "x\u{0D4E}\" OR \u{0D4E}\"jazz", "zzz\u{0D4E}\" OR \u{0D4E}\" jazz", "\u{0D4E} \" OR jazz",
            "\u{0D4E}\"\u{0D4E}\"", "\u{0600}\"jazz\" OR \"cafe", "\u{06DD}\" NEAR(jazz cafe)", "\u{110BD}\" OR \"x",
            "\u{0605}\u{0D4E}\"", "\"", "\"\"\"", "a\"b", "\"jazz", "jazz\"", "*", "jazz*", "^", "^jazz", "NEAR(jazz cafe)",
            "NEAR(jazz cafe, 1)", "jazz\u{0}cafe", "\u{0}", "name:jazz", "{name tags}: jazz", "- jazz", "jazz + cafe", "(jazz",
            "jazz)", "AND", "OR NOT", "\u{0D4E}", "\u{0D4E}\u{0D4E}\u{0D4E} \"\" \u{0D4E}",
        ]
        for text in hostile {
            for query in [StationQuery(text: text), StationQuery(tag: text), StationQuery(country: text), StationQuery(language: text),
                          StationQuery(text: text, tag: text, country: text, language: text)] {
                XCTAssertNoThrow(try database.search(query), "\(query)")
            }
        }
        // Operators in the text are words the name must hold, not operators: nothing is found.
        for text in ["x\u{0D4E}\" OR \u{0D4E}\"jazz", "zzz\u{0D4E}\" OR \u{0D4E}\" jazz", "\u{0D4E}\" OR name:jazz",
                     "\u{0600}\"zzz\" OR \"jazz", "zzz\u{0D4E} OR jazz", "zzz\u{0D4E}\u{0020}OR\u{0D4E}\u{0020}jazz"] {
            XCTAssertEqual(try names(.init(text: text)), [], text.debugDescription)
            XCTAssertEqual(try names(.init(tag: text)), [], text.debugDescription)
        }
        // A name with the mark is found by its words.
        try database.sync([F.station("m", "\u{0D4E}Jazz \"Mark\" FM", tags: "jazz")])
        XCTAssertEqual(try names(.init(text: "\u{0D4E}jazz \"mark")), ["\u{0D4E}Jazz \"Mark\" FM"])
        XCTAssertEqual(try names(.init(text: "mark\" fm")), ["\u{0D4E}Jazz \"Mark\" FM"])
    }

    /// Whatever the text, the expression is column filters over quoted words joined by AND, nothing else:
    /// checked by lexing it as FTS5 does, over random text made of the pieces that broke it before.
    func testTheExpressionIsOnlyQuotedWordsJoinedByAND() throws {
        let pieces = ["\u{0D4E}", "\u{0600}", "\u{0605}", "\u{06DD}", "\u{110BD}", "\"", " ", "OR", "NOT", "NEAR", "(", ")",
                      ":", "name", "*", "^", "+", "-", "{", "}", "\u{0}", "\t", "é", "\u{0301}", "\u{093F}", "jazz", "\u{E000}",
                      "😀", "\u{200D}", "\u{FEFF}", "\u{1F1E9}\u{1F1EA}", "AND", "'", "\\", ","]
        var random = SeededRandom(seed: 15)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let query = StationQuery(text: text, tag: text, country: text, language: text)
            guard let match = SearchExpression.match(for: query) else { continue }
            XCTAssertNoThrow(try Self.checkStructure(match), "\(text.debugDescription) → \(match)")
            XCTAssertNoThrow(try database.search(query), text.debugDescription)
        }
        let many = String(repeating: "jazz ", count: 1_000) + String(repeating: "z", count: 10_000)
        let words = try XCTUnwrap(SearchExpression.words(many, prefix: false))
        XCTAssertEqual(words.components(separatedBy: " AND ").count, SearchExpression.maximumWords)
        XCTAssertNoThrow(try database.search(.init(text: many)))
    }

    private struct StructureError: Error, CustomStringConvertible { let description: String }

    /// Lexes `match` as FTS5 does: strings (`"…"`, `""` inside one), and outside them only the column
    /// filters, `:`, parentheses, `AND`, `*` after a string, and spaces.
    private static func checkStructure(_ match: String) throws {
        let scalars = Array(match.unicodeScalars)
        var index = 0
        var depth = 0
        var afterString = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                index += 1
                while true {
                    guard index < scalars.count else { throw StructureError(description: "unterminated string") }
                    if scalars[index] == "\"" {
                        if index + 1 < scalars.count, scalars[index + 1] == "\"" { index += 2; continue }
                        break
                    }
                    index += 1
                }
                index += 1
                afterString = true
                continue
            }
            if scalar == "*" {
                guard afterString else { throw StructureError(description: "* not after a string") }
                afterString = false
                index += 1
                continue
            }
            afterString = false
            switch scalar {
            case " ", ":": index += 1
            case "(": depth += 1; index += 1
            case ")":
                depth -= 1
                guard depth >= 0 else { throw StructureError(description: "unbalanced )") }
                index += 1
            default:
                var word = ""
                while index < scalars.count, ("a"..."z").contains(scalars[index]) || ("A"..."Z").contains(scalars[index]) {
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard ["AND", "name", "tags", "language", "country", "countrycode"].contains(word) else {
                    throw StructureError(description: "bare \(word.isEmpty ? String(scalar) : word)")
                }
            }
        }
        guard depth == 0 else { throw StructureError(description: "unbalanced (") }
    }

    /// Results come most popular first however common the word and however rare the country,
    /// and a re-sync that changes the votes changes the order.
    func testACommonWordWithARareCountryAndAResyncedOrder() throws {
        var stations = (0..<300).map { F.station(F.uuid($0), "Radio \($0)", country: "DE", votes: $0) }
        stations.append(F.station("va", "Radio Vaticana", country: "VA", votes: 1))
        try database.sync(stations)
        XCTAssertEqual(try names(.init(text: "radio", country: "VA")), ["Radio Vaticana"])
        XCTAssertEqual(try names(.init(text: "radio", country: "DE", limit: 3)), ["Radio 299", "Radio 298", "Radio 297"])
        stations[7].votes = 5000
        try database.sync(stations)
        XCTAssertEqual(try names(.init(text: "radio", limit: 2)), ["Radio 7", "Radio 299"])
    }

    func testLimit() throws {
        XCTAssertEqual(try database.search(.init(country: "DE", limit: 1)).count, 1)
    }
}
