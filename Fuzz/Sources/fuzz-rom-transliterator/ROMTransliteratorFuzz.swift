import Display
import FuzzDriver

/// What the LCD is given (station names, titles) on hostile text, for both ROMs: every character of the
/// result has a code in the ROM (so no control character reaches the display), spaces are single and
/// inside, and `codes` gives one code a character.
@_cdecl("fuzz_rom_transliterator_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzROMTransliterator(UnsafeRawPointer(data), count) }
}

private let transliterators = CharacterROM.allCases.map { ROMTransliterator(rom: $0) }

func fuzzROMTransliterator(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    for transliterator in transliterators {
        let shown = transliterator.transliterate(text)
        for character in shown {
            guard let code = transliterator.rom.code(for: character) else { preconditionFailure("\(character.debugDescription) not in the ROM") }
            precondition(code >= 0x10, "a CGRAM code for \(character.debugDescription)")
        }
        precondition(!shown.hasPrefix(" ") && !shown.hasSuffix(" ") && !shown.contains("  "), shown.debugDescription)
        precondition(transliterator.codes(text).count == shown.count)
    }
    return 0
}
