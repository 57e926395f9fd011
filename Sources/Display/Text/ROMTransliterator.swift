import Foundation

/// Turns any Unicode text into text an HD44780 ROM can show, character for character.
///
/// Steps: compatibility folding (NFKC: "𝔅𝔲𝔷𝔷𝔦𝔫" → "Buzzin", full-width forms → ASCII); characters the ROM
/// has are kept as they are if they are symbols or Latin letters (A00: "ä", "ñ", "°"; A02: most of
/// Latin-1); runs of other characters are
/// transliterated to Latin with ICU (BGN for Russian, UNGEGN for Greek, Any-Latin for the rest:
/// "Привет" → "Privet", "東京" → "dōng jīng"), then each
/// character is kept if the ROM has it, else stripped of its marks ("ō" → "o"), else folded to ASCII
/// (ICU Latin-ASCII: "–" → "-", "…" → "..."), else dropped (emoji, pictographs). Whitespace runs become
/// one space; the result is trimmed. Every character of the result has a code in the ROM.
///
/// Thread-safe (a value type over immutable tables). ICU transforms are not cheap: callers rendering
/// the same text repeatedly should keep the result.
public struct ROMTransliterator: Sendable {
    public let rom: CharacterROM

    public init(rom: CharacterROM) {
        self.rom = rom
    }

    /// Russian (BGN) first, then Greek (UNGEGN) and everything else (Any-Latin): these read more naturally
    /// than Any-Latin's ISO 9 ("Маяк" → "Mayak", not "Maâk"; "Καλημέρα" → "Kalimera"). BGN separates
    /// letters that would otherwise read as one sound with "·" ("Irkut·sk"); it is dropped before the
    /// second step, which would turn it into a colon.
    private static let russianToLatin = StringTransform("Russian-Latin/BGN")
    private static let toLatin = StringTransform("Greek-Latin/UNGEGN; Any-Latin")

    /// Stand-ins for ASCII characters a ROM lacks (A00 shows ¥ for "\" and → for "~").
    private static let substitutes: [Character: String] = ["\\": "/", "~": "-", "`": "'", "♥": "<3", "❤": "<3"]

    /// `text` folded and transliterated so every character has a code in `rom`.
    public func transliterate(_ text: String) -> String {
        let folded = text.unicodeScalars
            .filter { !(0xFE00...0xFE0F).contains($0.value) && $0.value != 0x200D }  // variation selectors, ZWJ
            .reduce(into: "") { $0.unicodeScalars.append($1) }
            .precomposedStringWithCompatibilityMapping
        var result = ""
        var run = ""
        /// Ends a run of characters to transliterate; ideographs and syllables get a space against
        /// neighbouring letters ("MBC충북" → "MBC chungbug"), other scripts join as written.
        func endRun(before next: Character?) {
            guard !run.isEmpty else { return }
            var latin = self.latin(run)
            if Self.isSyllabic(run.unicodeScalars.first), let last = result.last, last.isLetter || last.isNumber {
                latin = " " + latin
            }
            if Self.isSyllabic(run.unicodeScalars.last), let next, next.isLetter || next.isNumber {
                latin += " "
            }
            result += latin
            run = ""
        }
        for character in folded {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                endRun(before: nil)
                result.append(" ")
            } else if keepsAsIs(character) {
                endRun(before: character)
                result.append(character)
            } else {
                run.append(character)
            }
        }
        endRun(before: nil)
        return result.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// The displayable code of every character of `text` after `transliterate(_:)`.
    public func codes(_ text: String) -> [UInt8] {
        transliterate(text).compactMap { rom.code(for: $0) }
    }

    /// True for characters the ROM has that need no transliteration: symbols and Latin letters. The ROM's
    /// few Greek letters stay unused for Greek words, which read better fully transliterated.
    private func keepsAsIs(_ character: Character) -> Bool {
        guard rom.code(for: character) != nil else { return false }
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
              scalar.properties.isAlphabetic else { return true }
        return scalar.value < 0x250  // Basic Latin through Latin Extended-B
    }

    /// Han, kana and Hangul: scripts written without spaces between words, whose romanisation is syllables.
    private static func isSyllabic(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else { return false }
        return (0x1100...0x11FF).contains(value) || (0x3040...0x30FF).contains(value) || (0x3130...0x318F).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3FFFF).contains(value)
    }

    private func latin(_ run: String) -> String {
        guard !run.isEmpty else { return "" }
        let russian = (run.applyingTransform(Self.russianToLatin, reverse: false) ?? run).filter { $0 != "·" }
        let latin = russian.applyingTransform(Self.toLatin, reverse: false) ?? russian
        var result = ""
        for character in latin {
            if rom.code(for: character) != nil {
                result.append(character)
            } else if let fallback = displayable(withoutMarks(character)) {
                result += fallback
            } else if let substitute = Self.substitutes[character], let fallback = displayable(substitute) {
                result += fallback
            } else if let ascii = String(character).applyingTransform(StringTransform("Latin-ASCII"), reverse: false),
                      let fallback = displayable(ascii) {
                result += fallback
            } else if character.isWhitespace {
                result.append(" ")
            }
        }
        return result
    }

    private func withoutMarks(_ character: Character) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(character).decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `text` if it is non-empty and the ROM has every character of it.
    private func displayable(_ text: String) -> String? {
        guard !text.isEmpty, text.allSatisfy({ rom.code(for: $0) != nil || $0 == " " }) else { return nil }
        return text
    }
}
