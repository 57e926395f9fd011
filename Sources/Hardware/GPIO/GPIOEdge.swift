/// One level change of a requested line, as the kernel reported it.
public struct GPIOEdge: Sendable, Equatable {
    public enum Direction: String, Sendable, Equatable {
        /// The logical level went to 1 (active-low already applied).
        case rising
        /// The logical level went to 0.
        case falling
    }

    /// Index of the line in the request it belongs to (`GPIOBackend.request(chip:lines:)`).
    public var line: Int
    public var direction: Direction
    /// The kernel's `CLOCK_MONOTONIC` timestamp of the edge, in nanoseconds.
    public var timestamp: UInt64

    public init(line: Int, _ direction: Direction, at timestamp: UInt64) {
        self.line = line
        self.direction = direction
        self.timestamp = timestamp
    }

    /// The logical level after the edge.
    public var level: Bool { direction == .rising }
}
