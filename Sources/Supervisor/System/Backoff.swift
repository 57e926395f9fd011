/// Delays between restarts of a failed subsystem: doubling from `initial` up to `maximum`.
public struct Backoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    public private(set) var attempt = 0

    public init(initial: Double = 1, maximum: Double = 60) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next try, and counts the try.
    public mutating func next() -> Double {
        defer { attempt += 1 }
        return min(maximum, initial * Double(1 << min(attempt, 30)))
    }

    public mutating func reset() { attempt = 0 }
}
