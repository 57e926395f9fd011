/// The setup file after applying: a one-shot inbox. Each applied key's line is commented out, a secret's with
/// its value replaced (anyone with the card can read the FAT partition), and a header line says what was
/// applied when; every other byte stays as the owner wrote it (comments, blank lines, CRLF line breaks, a
/// byte-order mark). Read again, the file sets nothing, so a second run applies nothing.
enum SetupFileRewrite {
    /// `original` with the lines in `lines` (1-based line → dotted key) commented out.
    /// - Parameters:
    ///   - applied: the names of what was applied, for the header.
    ///   - date: `YYYY-MM-DD`.
    static func rewritten(_ original: [UInt8], lines: [Int: String], applied: [String], date: String) -> [UInt8] {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasMark = original.starts(with: byteOrderMark)
        let body = hasMark ? Array(original.dropFirst(3)) : original
        var fileLines = split(body)
        let lineBreak: [UInt8] = fileLines.first.map { $0.lineBreak == [0x0D, 0x0A] } == true ? [0x0D, 0x0A] : [0x0A]
        for (number, key) in lines where number >= 1 && number <= fileLines.count {
            let text = fileLines[number - 1].text
            let indent = Array(text.prefix { $0 == 0x20 || $0 == 0x09 })
            let rest = text.dropFirst(indent.count)
            if SetupSettings.secretKeys.contains(key) {
                let name = key.split(separator: ".").last.map(String.init) ?? key
                fileLines[number - 1].text = indent + Array("#\(name) = \"(set on \(date); removed from this card)\"".utf8)
            } else {
                fileLines[number - 1].text = indent + [0x23] + rest
            }
        }
        let header = Array("# Applied by the radio on \(date): \(applied.joined(separator: ", "))".utf8) + lineBreak
        return (hasMark ? byteOrderMark : []) + header + fileLines.flatMap { $0.text + $0.lineBreak }
    }

    /// One line: its text and what ended it (`\n`, `\r\n`, or nothing at the end of the file).
    private struct Line {
        var text: [UInt8]
        let lineBreak: [UInt8]
    }

    /// The lines as a TOML parser counts them: broken at each `\n`.
    private static func split(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            let carriageReturn = index > start && bytes[index - 1] == 0x0D
            lines.append(Line(text: Array(bytes[start..<(carriageReturn ? index - 1 : index)]),
                              lineBreak: carriageReturn ? [0x0D, 0x0A] : [0x0A]))
            start = index + 1
        }
        if start < bytes.count { lines.append(Line(text: Array(bytes[start...]), lineBreak: [])) }
        return lines
    }
}
