/// Decodes the HTML entities stations put in ICY titles: named ones that occur in practice and numeric ones.
enum HTMLEntities {
    private static let named: [Substring: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
    ]

    /// Replaces `&name;`, `&#NNN;` and `&#xHH;`; anything unknown or malformed stays as it was.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (scalar, length) = entity(in: scalars, at: index) {
                result.append(scalar)
                index += length
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    private static func entity(in scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        let limit = min(scalars.count, start + 12)
        guard let semicolon = (start + 1..<limit).first(where: { scalars[$0] == ";" }), semicolon > start + 1 else {
            return nil
        }
        let body = String(String.UnicodeScalarView(scalars[(start + 1)..<semicolon]))
        let length = semicolon - start + 1
        if body.hasPrefix("#x") || body.hasPrefix("#X") {
            guard let value = UInt32(body.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, length)
        }
        if body.hasPrefix("#") {
            guard let value = UInt32(body.dropFirst()), let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, length)
        }
        guard let scalar = named[Substring(body)] else { return nil }
        return (scalar, length)
    }
}
