import TOMLKit

/// Typed, checked reads from one table of a configuration file.
///
/// Each read records the key as known; a wrong type or an out-of-range value is recorded
/// as a ``ConfigurationError/Problem`` with the key's line, and the default is used so
/// that every problem in the file is found in one pass. ``Configuration`` reports keys that
/// no section read as unknown.
public final class ConfigSection {
    /// The dotted name of this table, e.g. `hardware.encoder`; empty for the root.
    public let path: String
    private let table: TOMLTable?
    private let document: ConfigDocument

    init(path: String, table: TOMLTable?, document: ConfigDocument) {
        self.path = path
        self.table = table
        self.document = document
        document.markKnown(path)
    }

    /// Whether the file has this table at all.
    public var isPresent: Bool { table != nil }

    /// The keys this table has in the file, sorted (for tables of free keys, e.g. `[ir.keys]`).
    public var keys: [String] { table?.keys.sorted() ?? [] }

    /// A nested table, e.g. `section("encoder")` inside `hardware`.
    public func section(_ name: String) -> ConfigSection {
        let child = value(name)
        if child != nil, child?.table == nil {
            report(name, "must be a table")
        }
        return ConfigSection(path: qualified(name), table: child?.table, document: document)
    }

    public func string(_ key: String, default fallback: String) -> String {
        optionalString(key) ?? fallback
    }

    public func optionalString(_ key: String) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else { return wrongType(key, "a string") }
        return string
    }

    public func bool(_ key: String, default fallback: Bool) -> Bool {
        guard let value = value(key) else { return fallback }
        guard let bool = value.bool else { return wrongType(key, "true or false") ?? fallback }
        return bool
    }

    public func int(_ key: String, default fallback: Int, range: ClosedRange<Int>? = nil) -> Int {
        optionalInt(key, range: range) ?? fallback
    }

    public func optionalInt(_ key: String, range: ClosedRange<Int>? = nil) -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.int else { return wrongType(key, "a whole number") }
        if let range, !range.contains(int) {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(int)")
            return nil
        }
        return int
    }

    /// A number; TOML integers are accepted where a decimal is expected (`latitude = 52`).
    public func double(_ key: String, default fallback: Double, range: ClosedRange<Double>? = nil) -> Double {
        optionalDouble(key, range: range) ?? fallback
    }

    public func optionalDouble(_ key: String, range: ClosedRange<Double>? = nil) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.double ?? value.int.map(Double.init) else { return wrongType(key, "a number") }
        if let range, !range.contains(number) {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
            return nil
        }
        return number
    }

    public func strings(_ key: String, default fallback: [String]) -> [String] {
        guard let value = value(key) else { return fallback }
        guard let array = value.array else { return wrongType(key, "a list of strings") ?? fallback }
        var result: [String] = []
        for element in array {
            guard let string = element.string else { return wrongType(key, "a list of strings") ?? fallback }
            result.append(string)
        }
        return result
    }

    /// A whole number or a name, e.g. a GPIO line given by offset (`17`) or by name (`"KNOB_A"`).
    public func numberOrName(_ key: String) -> NumberOrName? {
        guard let value = value(key) else { return nil }
        if let int = value.int { return .number(int) }
        if let string = value.string { return .name(string) }
        return wrongType(key, "a whole number or a name")
    }

    /// A number within `range`, or one word (`loudness_target = "off"`); nil when the key is absent or holds
    /// anything else, which is reported as not being `expected`.
    public func numberOrWord(_ key: String, word: String, range: ClosedRange<Double>, expected: String) -> NumberOrWord? {
        guard let value = value(key) else { return nil }
        if let number = value.double ?? value.int.map(Double.init) {
            if range.contains(number) { return .number(number) }
            report(key, "must be \(expected), not \(number)")
            return nil
        }
        if let string = value.string {
            if string == word { return .word }
            report(key, "must be \(expected), not \"\(string)\"")
            return nil
        }
        return wrongType(key, expected)
    }

    /// A string from a fixed set, e.g. `backend = "gpiod"`.
    public func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, default fallback: Choice
    ) -> Choice where Choice.RawValue == String {
        guard let raw = optionalString(key) else { return fallback }
        guard let choice = Choice(rawValue: raw) else {
            let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            report(key, "must be one of \(allowed), not \"\(raw)\"")
            return fallback
        }
        return choice
    }

    /// Records a problem with a key of this section (for checks across several keys).
    public func report(_ key: String, _ message: String) {
        document.report(key: qualified(key), message: message)
    }

    private func value(_ key: String) -> TOMLValueConvertible? {
        document.markKnown(qualified(key))
        return table?[key]
    }

    private func wrongType<T>(_ key: String, _ expected: String) -> T? {
        report(key, "must be \(expected)")
        return nil
    }

    private func qualified(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}

/// A value given either as a whole number or as a name.
public enum NumberOrName: Sendable, Equatable {
    case number(Int)
    case name(String)
}

/// A value given either as a number or as a set word, e.g. a level that can be turned `"off"`.
public enum NumberOrWord: Sendable, Equatable {
    case number(Double)
    case word
}
