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
