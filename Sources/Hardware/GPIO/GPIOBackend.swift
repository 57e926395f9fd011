/// Where input edges come from: the kernel through libgpiod, a simulator, or a test.
///
/// An implementation requests lines for both-edge events and hands out their edges in the order
/// they happened, with `CLOCK_MONOTONIC` nanosecond timestamps (the kernel's own for real lines).
/// `waitForEdges(until:)` is called from a single thread (the `InputReader`'s); `wake()` from any
/// thread. Tests for every implementation: `Tests/HardwareTests/GPIO/`.
public protocol GPIOBackend: AnyObject {
    /// Requests `lines` of `chip` (name, `/dev` path or label) as inputs with both-edge events.
    /// Returns their current logical levels, in order. Throws `GPIOError`.
    func request(chip: String, lines: [GPIOLineSpec]) throws -> [Bool]

    /// Blocks until edges arrive, `completeUntil` reaches `deadline` (`CLOCK_MONOTONIC` ns) or `wake()` is called.
    /// Returns the edges read, oldest first (empty on timeout or wake). Throws `GPIOError`.
    func waitForEdges(until deadline: UInt64?) throws -> [GPIOEdge]

    /// Time up to which every edge has been returned (`CLOCK_MONOTONIC` ns): a decoder may decide
    /// timeouts (debounce, long press) up to here. Same thread as `waitForEdges(until:)`.
    var completeUntil: UInt64 { get }

    /// Makes a blocked or the next `waitForEdges(until:)` return at once. Any thread.
    func wake()

    /// Releases the lines. Call after the waiting thread has stopped.
    func release()
}
