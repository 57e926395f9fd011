import Hardware

/// Contact bounce: after an edge, the contact chatters a random number of times within a window.
public struct ContactBounce: Sendable {
    /// The longest chatter after an edge.
    public var maximumNanoseconds: UInt64
    /// The most extra back-and-forth pairs of edges after an edge.
    public var maximumChatters: Int

    /// No bounce at all.
    public static let none = ContactBounce(maximumNanoseconds: 0, maximumChatters: 0)

    /// Up to `maximumChatters` pairs of extra edges within `maximumNanoseconds` (2 ms and 4 by default).
    public init(maximumNanoseconds: UInt64 = 2_000_000, maximumChatters: Int = 4) {
        self.maximumNanoseconds = maximumNanoseconds
        self.maximumChatters = maximumChatters
    }

    /// The edges of `line` going to `level` at `time`, chattering within `min(maximum, limit)`; the last one is at `level`.
    public func edges(line: Int, to level: Bool, at time: UInt64, limit: UInt64,
                      using random: inout SeededRandom) -> [GPIOEdge] {
        let direction: GPIOEdge.Direction = level ? .rising : .falling
        let opposite: GPIOEdge.Direction = level ? .falling : .rising
        var edges = [GPIOEdge(line: line, direction, at: time)]
        let window = min(maximumNanoseconds, limit)
        guard window >= 2, maximumChatters > 0 else { return edges }
        let length = UInt64.random(in: 2...window, using: &random)
        let chatters = Int.random(in: 0...maximumChatters, using: &random)
        var times = (0..<(2 * chatters)).map { _ in time + UInt64.random(in: 1...length, using: &random) }
        times.sort()
        for (index, chatter) in times.enumerated() {
            edges.append(GPIOEdge(line: line, index % 2 == 0 ? opposite : direction, at: chatter))
        }
        return edges
    }
}
