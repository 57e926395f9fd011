import Foundation
import TOMLKit

/// A configuration file being read: parse it, read its sections, then ``finish()``.
///
/// Each subsystem maps its own section (`LocationSettings(file.section("location"))`);
/// ``finish()`` then reports keys no section read, and every problem found, at once.
public final class ConfigFile {
    private let document: ConfigDocument
    private let source: String

    /// Parses `text`; `source` names the file in errors.
    /// - Throws: ``ConfigurationError`` for a TOML syntax error, with its line.
    public init(text: String, source: String) throws(ConfigurationError) {
        do {
            document = try ConfigDocument(text: text)
        } catch {
            throw ConfigurationError(source: source, problems: [error])
        }
        self.source = source
    }

    /// Reads the file at `path`.
    /// - Throws: ``ConfigurationError`` when it is missing, unreadable or not TOML.
    public convenience init(path: String) throws(ConfigurationError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let message = FileManager.default.fileExists(atPath: path) ? "cannot be read as UTF-8 text" : "no such file"
            throw ConfigurationError(source: path, problems: [.init(key: "", line: nil, message: message)])
        }
        try self.init(text: text, source: path)
    }

    /// A top-level table, e.g. `[audio]`; absent tables read as all defaults.
    public func section(_ name: String) -> ConfigSection {
        ConfigSection(path: "", table: document.root, document: document).section(name)
    }

    /// The parsed file, for a tool that rewrites it (`wavedial setup apply` merges into a settings file).
    public var root: TOMLTable { document.root }

    /// The 1-based line on which `key` (dotted, e.g. `wifi.password`) is set; when the key is not on a
    /// line of its own under its table's header (a dotted key, an inline table), its table's header line.
    public func line(of key: String) -> Int? { document.line(of: key) }

    /// Reports unknown keys and throws if anything was wrong.
    public func finish() throws(ConfigurationError) {
        document.reportUnknownKeys()
        if !document.problems.isEmpty {
            throw ConfigurationError(source: source, problems: document.problems)
        }
    }
}

/// A parsed TOML file with what is needed to report problems by key and line.
final class ConfigDocument {
    let root: TOMLTable
    private let lines: [Substring]
    private(set) var known: Set<String> = []
    private(set) var problems: [ConfigurationError.Problem] = []

    init(text: String) throws(ConfigurationError.Problem) {
        // toml++ (under TOMLKit) asserts, and so aborts the process, on some invalid input where
        // it expects a key (found by fuzz-config): refuse that input here, with its line.
        if let problem = Self.lexicalProblem(text) {
            throw ConfigurationError.Problem(key: "", line: problem.line, message: problem.message)
        }
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError.Problem(key: "", line: error.source.begin.line, message: error.description)
        } catch {
            throw ConfigurationError.Problem(key: "", line: nil, message: "\(error)")
        }
        // "\r\n" is one Character to Swift: a file saved on Windows has its lines too.
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The first thing toml++ would trip over rather than report, with its 1-based line: a
    /// non-ASCII character outside strings and comments, a table header whose name does not
    /// start like a key, or a '}' where an array expects a value (`[}`, `[1, }`). All are invalid
    /// TOML, so refusing them loses nothing.
    static func lexicalProblem(_ text: String) -> (line: Int, message: String)? {
        enum Context { case plain, comment, basic, literal, multilineBasic, multilineLiteral }
        var context = Context.plain
        var line = 1
        var open: [Unicode.Scalar] = []  // the [ and { of values not yet closed
        var expectingElement = false  // after an array's '[' or ',', until its next value
        var atLineStart = true
        var inHeader = false
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func starts(_ prefix: String) -> Bool {
            let characters = Array(prefix.unicodeScalars)
            return index + characters.count <= scalars.count && Array(scalars[index..<index + characters.count]) == characters
        }
        func startsKey(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "_-\"']".unicodeScalars.contains(scalar))
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                atLineStart = true
                inHeader = false
                if context == .comment || context == .basic || context == .literal { context = .plain }
                index += 1
                continue
            }
            switch context {
            case .plain:
                if scalar == " " || scalar == "\t" || scalar == "\r" { break }
                defer { atLineStart = false }
                if scalar == "#" { context = .comment; break }
                if expectingElement && scalar == "}" {
                    return (line, "an array holds values between '[' and ']', not '}'")
                }
                expectingElement = false
                if starts("\"\"\"") { context = .multilineBasic; index += 2 }
                else if starts("'''") { context = .multilineLiteral; index += 2 }
                else if scalar == "\"" { context = .basic }
                else if scalar == "'" { context = .literal }
                else if !scalar.isASCII {
                    return (line, "unexpected '\(Character(scalar))': outside quotes and comments a TOML file is ASCII")
                } else if scalar == "[" && atLineStart && open.isEmpty {
                    inHeader = true
                    var next = index + 1
                    if next < scalars.count, scalars[next] == "[" { next += 1 }
                    while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" { next += 1 }
                    if next < scalars.count, !startsKey(scalars[next]) {
                        return (line, "a table name starts with a letter, a digit, '_', '-' or a quote, not '\(Character(scalars[next]))'")
                    }
                } else if !inHeader && (scalar == "[" || scalar == "{") {
                    open.append(scalar)
                    expectingElement = scalar == "["
                } else if !inHeader && (scalar == "]" || scalar == "}") {
                    _ = open.popLast()
                } else if scalar == "," && open.last == "[" {
                    expectingElement = true
                }
            case .comment:
                break
            case .basic:
                if scalar == "\\" { index += 1 } else if scalar == "\"" { context = .plain }
            case .literal:
                if scalar == "'" { context = .plain }
            case .multilineBasic:
                if scalar == "\\" {
                    // An escape; a backslash ending the line folds it, which still counts as a line.
                    if index + 1 < scalars.count, scalars[index + 1] == "\n" { line += 1 }
                    index += 1
                } else if starts("\"\"\"") {
                    context = .plain
                    index += 2
                }
            case .multilineLiteral:
                if starts("'''") { context = .plain; index += 2 }
            }
            index += 1
        }
        return nil
    }

    func markKnown(_ key: String) { known.insert(key) }

    func report(key: String, message: String) {
        problems.append(.init(key: key, line: line(of: key), message: message))
    }

    /// Reports every key in the file that no section read.
    func reportUnknownKeys() {
        walk(root, prefix: "")
    }

    private func walk(_ table: TOMLTable, prefix: String) {
        for key in table.keys.sorted() {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            guard known.contains(path) else {
                report(key: path, message: "is not a known setting")
                continue
            }
            if let child = table[key]?.table { walk(child, prefix: path) }
        }
    }

    /// The line on which `key` (dotted) is set or its table opens. TOMLKit keeps no
    /// positions for values, so this follows the `[table]` headers through the text.
    func line(of key: String) -> Int? {
        let parts = key.split(separator: ".").map(String.init)
        guard !parts.isEmpty else { return nil }
        let table = parts.dropLast().joined(separator: ".")
        var current = ""
        var tableLine: Int?
        for (index, raw) in lines.enumerated() {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("[") {
                let name = text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                    .split(separator: "#").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")) } ?? ""
                current = name
                if name == key { return index + 1 }
                if name == table { tableLine = index + 1 }
                continue
            }
            guard let equals = text.firstIndex(of: "=") else { continue }
            // A dotted key (`wifi.ssid = …` before any header) is found too.
            let name = text[..<equals].split(separator: ".")
                .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
                .joined(separator: ".")
            if (current.isEmpty ? name : "\(current).\(name)") == key { return index + 1 }
        }
        return tableLine
    }
}
