import Foundation

/// The FTS5 query a ``StationQuery`` becomes: user text is never query syntax.
///
/// Text is folded as the index is (``WavedialDatabase`` `wd_fold`), then split into words per Unicode
/// scalar, not per Character: a grapheme may join a prepended concatenation mark (U+0D4E, U+0600–U+0605,
/// U+06DD, U+110BD) to the quote or space after it, and split per Character that quote and space ended
/// up inside a word. A word is a run of letters, numbers, marks and private-use scalars (what FTS5's
/// `unicode61` tokenizer indexes, marks kept so that a word is searched as the phrase the index holds);
/// anything else separates words. Each word becomes an FTS5 string, `"` doubled per scalar, so any input
/// is a valid query that matches only its words. At most ``maximumWords`` words of at most
/// ``maximumWordLength`` scalars are taken (a station name is a line, and the socket takes any text).
/// Pure: any thread.
public enum SearchExpression {
    /// Words past this many are ignored.
    public static let maximumWords = 16
    /// A longer word is cut to this many scalars.
    public static let maximumWordLength = 64

    /// The MATCH expression for `query`: its text in `name` (words as prefixes), its tag, language and
    /// country (a two-letter code in `countrycode`, else the name in `country`) as whole words; every
    /// part required. Nil when nothing is left to search for.
    public static func match(for query: StationQuery) -> String? {
        var parts: [String] = []
        if let words = words(query.text, prefix: true) { parts.append("name : (\(words))") }
        if let tag = query.tag, let words = words(tag, prefix: false) { parts.append("tags : (\(words))") }
        if let language = query.language, let words = words(language, prefix: false) { parts.append("language : (\(words))") }
        if let country = query.country, let words = words(country, prefix: false) {
            let letters = country.trimmingCharacters(in: .whitespaces).unicodeScalars
            let isCode = letters.count == 2 && letters.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
            parts.append("\(isCode ? "countrycode" : "country") : (\(words))")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// Every word of `text` as an FTS5 string (`"word"`, or `"word"*` as a prefix), joined by `AND`;
    /// nil when `text` has no word.
    public static func words(_ text: String, prefix: Bool) -> String? {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var length = 0
        func finishWord() {
            if !word.isEmpty { words.append("\"" + String(word) + "\"" + (prefix ? "*" : "")) }
            word = String.UnicodeScalarView()
            length = 0
        }
        for scalar in WavedialDatabase.fold(text).unicodeScalars {
            guard words.count < maximumWords else { break }
            guard isWordScalar(scalar) else {
                finishWord()
                continue
            }
            guard length < maximumWordLength else { continue }
            // A word holds no quote (it is no letter); doubled all the same, so a string never ends early.
            if scalar == "\"" { word.append(scalar) }
            word.append(scalar)
            length += 1
        }
        if words.count < maximumWords { finishWord() }
        return words.isEmpty ? nil : words.joined(separator: " AND ")
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark, .privateUse:
            return true
        default:
            return false
        }
    }
}
