/// An attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, values plain or quoted.
/// At most ``maximumCount`` attributes are kept; names are case-sensitive, the first of a name wins.
struct HLSAttributes {
    static let maximumCount = 64
    private var pairs: [(name: Substring, value: Substring)] = []

    init(_ text: Substring) {
        var rest = text[...]
        while !rest.isEmpty && pairs.count < Self.maximumCount {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingWhitespace()
            var valueStart = rest.index(after: equals)
            let value: Substring
            if valueStart < rest.endIndex && rest[valueStart] == "\"" {
                valueStart = rest.index(after: valueStart)
                let close = rest[valueStart...].firstIndex(of: "\"") ?? rest.endIndex
                value = rest[valueStart..<close]
                let afterClose = close < rest.endIndex ? rest.index(after: close) : close
                rest = rest[afterClose...]
                rest = rest.firstIndex(of: ",").map { rest[rest.index(after: $0)...] } ?? ""
            } else {
                let comma = rest[valueStart...].firstIndex(of: ",") ?? rest.endIndex
                value = rest[valueStart..<comma]
                rest = comma < rest.endIndex ? rest[rest.index(after: comma)...] : ""
            }
            if !name.isEmpty && !pairs.contains(where: { $0.name == Substring(name) }) {
                pairs.append((Substring(name), value))
            }
        }
    }

    subscript(name: String) -> String? {
        pairs.first { $0.name == name }.map { String($0.value).trimmingWhitespace() }
    }

    func integer(_ name: String) -> Int64? { self[name].flatMap { Self.integer(Substring($0)) } }

    /// A decimal-integer: digits only, nil when it does not fit 63 bits.
    static func integer(_ text: Substring) -> Int64? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(digits)
    }

    /// A decimal-floating-point, nil when it is not a finite number.
    static func decimal(_ text: Substring) -> Double? {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else { return nil }
        return value
    }
}
