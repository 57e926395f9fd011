/// What is wrong with a configuration file: every problem found, each naming its key and line.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// One problem in the file.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The dotted key, e.g. `dial.band_start`; empty for a syntax error.
        public let key: String
        /// 1-based line in the file, when known.
        public let line: Int?
        public let message: String

        public init(key: String, line: Int?, message: String) {
            self.key = key
            self.line = line
            self.message = message
        }

        public var description: String {
            let place = line.map { "line \($0)" }
            switch (key.isEmpty, place) {
            case (true, let place?): return "\(place): \(message)"
            case (true, nil): return message
            case (false, let place?): return "\(place): '\(key)' \(message)"
            case (false, nil): return "'\(key)' \(message)"
            }
        }
    }

    /// The file the problems are in (a path, or a name for text given directly).
    public let source: String
    public let problems: [Problem]

    public init(source: String, problems: [Problem]) {
        self.source = source
        self.problems = problems
    }

    public var description: String {
        "\(source): " + problems.map(\.description).joined(separator: "; ")
    }
}
