/// Puts edges of different lines back in timestamp order before they are decoded.
///
/// The kernel timestamps an edge in its interrupt handler but queues it from a per-line IRQ
/// thread, so an edge of one line can be readable after a later edge of another line (seen
/// under load and in the gpio-vm guest; for a quadrature encoder that is a reversed step). The
/// buffer holds edges for `windowNanoseconds` after their timestamp and releases them sorted;
/// an edge that arrives later than that is still released at once, in order with what is held.
/// A value type owned by the backend's waiting thread.
public struct EdgeOrderingBuffer: Sendable {
    public let windowNanoseconds: UInt64
    private var held: [GPIOEdge] = []

    public init(windowNanoseconds: UInt64) {
        self.windowNanoseconds = windowNanoseconds
    }

    /// Adds edges read just now (each line's in its own order).
    public mutating func add(_ edges: [GPIOEdge]) {
        guard !edges.isEmpty else { return }
        held = (held + edges).enumerated()
            .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// Removes and returns, oldest first, the edges whose window has passed at `now`.
    public mutating func release(at now: UInt64) -> [GPIOEdge] {
        let settled = held.prefix { $0.timestamp + windowNanoseconds <= now }
        held.removeFirst(settled.count)
        return Array(settled)
    }

    /// When the oldest held edge may be released, if any is held.
    public var nextRelease: UInt64? { held.first.map { $0.timestamp + windowNanoseconds } }

    /// Up to when every edge has been released at `now`: what may be decided from them.
    public func complete(at now: UInt64) -> UInt64 {
        let settled = now > windowNanoseconds ? now - windowNanoseconds : 0
        return held.first.map { min($0.timestamp > 0 ? $0.timestamp - 1 : 0, settled) } ?? settled
    }
}
