/// One edge of a raw input signal for `sim_edges`: `{"line":"encoder.a","level":0,"after_ns":250000}`
/// — the line's role, its logical level after the edge, and the nanoseconds since the previous edge.
public struct SignalEdge: Codable, Sendable, Equatable {
    public var line: String
    public var level: Int
    public var afterNanoseconds: UInt64

    /// The longest pause between two edges of one signal (a minute).
    public static let maximumGapNanoseconds: UInt64 = 60_000_000_000

    public init(line: String, level: Int, afterNanoseconds: UInt64) {
        self.line = line
        self.level = level
        self.afterNanoseconds = afterNanoseconds
    }

    enum CodingKeys: String, CodingKey {
        case line, level
        case afterNanoseconds = "after_ns"
    }
}
