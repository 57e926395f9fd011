import Threads

/// The end of a station's input chain: writes its audio into the ``ByteRing`` with the marks the
/// audio thread acts on (encoding, discontinuity, title), and holds the policy of how much may be
/// buffered: while playing, writes wait above the lead bound; while paused, the stream keeps recording
/// up to the time-shift bound, and past it new bytes are dropped and, on resume, the stale audio is
/// cleared so playback continues live (the reader sees ``ByteRing/generation`` change).
///
/// Titles are marked at most one per ``shortestHeardTitleSeconds`` of audio: a title replaced sooner was not
/// heard, so the newer one takes its place (a station sending a title per metadata block costs one mark, not
/// thousands). While audio is dropped nothing is written, so a title replaces the last one at the same byte,
/// and the latest carries over to the live audio on resume (``ByteRing/clear()``).
///
/// The sink methods run on the network thread; ``setPaused(_:)`` and the counters on any thread.
final class RingWriter: ElementaryStreamSink, @unchecked Sendable {
    let ring: ByteRing
    private let timeShiftSeconds: Double
    private let maximumLeadSeconds: Double
    private let condition = ConditionLock()
    // Guarded by `condition`.
    private var isPaused = false
    private var hasOverflowed = false
    private var bytesPerSecondValue = 16_000
    private var deliveredBytes = 0
    // Network thread only.
    private var markedEncoding: AudioEncoding?
    private var lastTitle: String?

    /// The most compressed bytes per second a ring is sized for (320 kbit/s, MP3's highest; HLS and
    /// FLAC stations above it get a shorter time-shift, measured in bytes).
    static let maximumBytesPerSecond = 40_000

    /// The least audio a title must cover to count as heard, in seconds; a title followed by another sooner is
    /// replaced by it, in the ring and before the device, so titles reach observers at most this often.
    static let shortestHeardTitleSeconds = 0.5

    init(timeShiftSeconds: Double, maximumLeadSeconds: Double) {
        self.timeShiftSeconds = timeShiftSeconds
        self.maximumLeadSeconds = maximumLeadSeconds
        let seconds = max(timeShiftSeconds, maximumLeadSeconds) + maximumLeadSeconds
        ring = ByteRing(capacity: Int(seconds) * Self.maximumBytesPerSecond)
    }

    /// Compressed bytes per second of the stream, as the decoder measured it or the server announced it
    /// (sizes time-shift, lead and title spacing); kept within 1,000 and 100 × ``maximumBytesPerSecond``,
    /// so no size computed from it overflows.
    var bytesPerSecond: Int {
        get { condition.withLock { bytesPerSecondValue } }
        set { condition.withLock { bytesPerSecondValue = min(max(1000, newValue), 100 * Self.maximumBytesPerSecond) } }
    }

    /// Audio bytes received so far, over all connections.
    var audioBytesDelivered: Int { condition.withLock { deliveredBytes } }

    func setPaused(_ paused: Bool) {
        condition.withLock {
            isPaused = paused
            if !paused && hasOverflowed {
                ring.clear()
                hasOverflowed = false
            }
        }
    }

    func begin(_ encoding: AudioEncoding) {
        guard encoding != markedEncoding else { return }
        markedEncoding = encoding
        ring.mark(.encoding(encoding))
    }

    func title(_ title: String) {
        guard title != lastTitle else { return }
        lastTitle = title
        let span = Double(bytesPerSecond) * Self.shortestHeardTitleSeconds
        ring.mark(.title(title), supersedingTitleWithin: Int(span))
    }

    func discontinuity() { ring.mark(.discontinuity) }

    func end() {}

    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let (paused, overflowed, rate) = condition.withLock { () -> (Bool, Bool, Int) in
            deliveredBytes += bytes.count
            return (isPaused, hasOverflowed, bytesPerSecondValue)
        }
        if paused {
            if overflowed { return !ring.closed }
            let bound = Int(timeShiftSeconds) * rate
            if !ring.writeIfRoom(bytes, limit: bound) {
                condition.withLock { hasOverflowed = true }
            }
            return !ring.closed
        }
        let lead = Int(maximumLeadSeconds) * rate
        return ring.write(bytes, waitingAbove: max(lead, ring.count > lead ? ring.capacity : lead)) == .written
    }
}
