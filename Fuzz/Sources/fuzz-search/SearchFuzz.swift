import FuzzDriver
import Foundation
import WavedialCore

/// The catalog search on hostile text, against the real FTS5 table: the input (UTF-8, invalid bytes
/// replaced) split at U+001F into text, tag, country and language. Every query must be one SQLite
/// accepts, made of column filters over quoted words joined by AND, and match only stations holding
/// every word of the text (no word of it can become an operator).
@_cdecl("fuzz_search_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSearch(UnsafeRawPointer(data), count) }
}

/// A catalog whose names hold the characters that broke the query before: prepended marks, quotes,
/// operators.
private let names = ["Jazz Café Berlin", "\u{0D4E}Mark \"Quote\" FM", "Rock (Radio) AND OR NOT*", "NEAR Radio Eins",
                     "Радио Шансон", "हिन्दी Radio", "\u{0600}Arabic Radio"]
private let database: WavedialDatabase = {
    let database = try! WavedialDatabase.inMemory()
    let staging = try! CatalogImport(database: database)
    for (index, name) in names.enumerated() {
        var station = Station(stationuuid: "00000000-0000-4000-8000-00000000000\(index)", name: name, url: "http://s.example/\(index)")
        station.tags = name
        station.country = name
        station.language = name
        station.countrycode = "DE"
        station.codec = "MP3"
        try! staging.add(station)
    }
    _ = try! staging.commit(server: "fuzz")
    return database
}()
/// Every ASCII word of the catalog's names, folded as FTS5 folds them (case, diacritics: "Café" has "cafe"),
/// and cut at every other character: more words than FTS5 sees, so a word none of them starts is surely missing.
/// Cut per scalar: per Character, U+0600 would take the "A" of "Arabic" into its grapheme.
private let asciiTokens: Set<String> = Set(names.flatMap { name in
    name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars
        .split { !(("a"..."z").contains($0) || ("0"..."9").contains($0)) }.map { String(String.UnicodeScalarView($0)) }
})

func fuzzSearch(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    let fields = text.split(separator: "\u{1F}", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
    func field(_ index: Int) -> String? { index < fields.count ? fields[index] : nil }
    let query = StationQuery(text: fields[0], tag: field(1), country: field(2), language: field(3), limit: 5)
    if let match = SearchExpression.match(for: query) {
        _ = strings(inWellFormed: match)
    }
    guard let results = try? database.search(query) else { preconditionFailure("SQLite refused the query for \(query)") }
    precondition(results.count <= 5)

    // The text alone: a plain ASCII word that starts no word of any name means nothing is found.
    let textOnly = StationQuery(text: fields[0], limit: 5)
    guard let match = SearchExpression.match(for: textOnly) else { return 0 }
    let words = strings(inWellFormed: match)
    precondition(words.count <= SearchExpression.maximumWords)
    let unmatched = words.contains { word in
        let folded = word.lowercased()
        return folded.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            && !asciiTokens.contains { $0.hasPrefix(folded) }
    }
    guard let found = try? database.search(textOnly) else { preconditionFailure("SQLite refused the query for \(textOnly)") }
    precondition(!unmatched || found.isEmpty, "\(match) found \(found.map(\.name))")
    return 0
}

/// The strings of `match` (`""` undoubled), checked to be lexed as FTS5 does into nothing but column
/// filters, `:`, parentheses, `AND`, strings, `*` after a string and spaces.
private func strings(inWellFormed match: String) -> [String] {
    let scalars = Array(match.unicodeScalars)
    var strings: [String] = []
    var index = 0
    var depth = 0
    var afterString = false
    while index < scalars.count {
        let scalar = scalars[index]
        if scalar == "\"" {
            var string = String.UnicodeScalarView()
            index += 1
            while true {
                precondition(index < scalars.count, "unterminated string in \(match)")
                if scalars[index] == "\"" {
                    if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                        string.append("\"")
                        index += 2
                        continue
                    }
                    break
                }
                string.append(scalars[index])
                index += 1
            }
            index += 1
            strings.append(String(string))
            afterString = true
            continue
        }
        if scalar == "*" {
            precondition(afterString, "* not after a string in \(match)")
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
            precondition(depth >= 0, "unbalanced ) in \(match)")
            index += 1
        default:
            var word = ""
            while index < scalars.count, ("a"..."z").contains(scalars[index]) || ("A"..."Z").contains(scalars[index]) {
                word.unicodeScalars.append(scalars[index])
                index += 1
            }
            precondition(["AND", "name", "tags", "language", "country", "countrycode"].contains(word), "bare text in \(match)")
        }
    }
    precondition(depth == 0, "unbalanced ( in \(match)")
    return strings
}
