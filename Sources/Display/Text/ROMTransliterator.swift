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

    /// ICU's Any-Latin, preceded by the BGN/UNGEGN romanisations for Russian and Greek, which read more
    /// naturally than Any-Latin's ISO 9 ("Маяк" → "Mayak", not "Maâk"; "Καλημέρα" → "Kalimera").
    private static let toLatin = StringTransform("Russian-Latin/BGN; Greek-Latin/UNGEGN; Any-Latin")

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
        for character in folded {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                result += latin(run)
                run = ""
                result.append(" ")
            } else if keepsAsIs(character) {
                result += latin(run)
                run = ""
                result.append(character)
            } else {
                run.append(character)
            }
        }
        result += latin(run)
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

    private func latin(_ run: String) -> String {
        guard !run.isEmpty else { return "" }
        let latin = run.applyingTransform(Self.toLatin, reverse: false) ?? run
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
