import Hardware

/// Produces the edges of a push button (logical level: 1 = pressed) with contact bounce.
public struct ButtonSignalGenerator: Sendable {
    public var line: Int
    public var bounce: ContactBounce
    private var random: SeededRandom

    public init(line: Int, bounce: ContactBounce = ContactBounce(), seed: UInt64) {
        self.line = line
        self.bounce = bounce
        self.random = SeededRandom(seed: seed)
    }

    /// A press at `time` held for `duration` ns, then released: the edges in order.
    public mutating func press(at time: UInt64, holdingFor duration: UInt64) -> [GPIOEdge] {
        bounce.edges(line: line, to: true, at: time, limit: duration / 2, using: &random)
            + bounce.edges(line: line, to: false, at: time + duration, limit: .max, using: &random)
    }

    /// A glitch: the contact closes for `duration` ns (shorter than debouncing), then opens again.
    public func glitch(at time: UInt64, lasting duration: UInt64) -> [GPIOEdge] {
        [GPIOEdge(line: line, .rising, at: time), GPIOEdge(line: line, .falling, at: time + duration)]
    }
}

extension Array where Element == GPIOEdge {
    /// Several signals merged into one time-ordered stream (same-time edges keep their order).
    public static func merged(_ streams: [[GPIOEdge]]) -> [GPIOEdge] {
        streams.joined().enumerated()
            .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }
}
