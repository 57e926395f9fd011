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
/// A warm station (``keepWarm(seconds:maximumBytes:)``) is not played: its writes never wait, and only the
/// latest seconds stay in the ring (its live edge). So that it can be played from there, the writer keeps the
/// header pages each stream opens with (Ogg, FLAC; ``StreamHeaders``), and ``play()`` puts them, with the
/// stream's encoding and title, before the bytes kept.
///
/// The sink methods run on the network thread; ``setPaused(_:)``, the warm switches and the counters on any thread.
final class RingWriter: ElementaryStreamSink, @unchecked Sendable {
    /// Where a stream (a connection that does not continue the last) starts in the ring, and its headers.
    private struct StreamStart {
        var position: Int64
        var encoding: AudioEncoding?
        var headers: [UInt8] = []
    }

    let ring: ByteRing
    private let timeShiftSeconds: Double
    private let maximumLeadSeconds: Double
    private let condition = ConditionLock()
    // Guarded by `condition` (a warm write holds it throughout, so play() never cuts into one).
    private var isPaused = false
    private var hasOverflowed = false
    private var bytesPerSecondValue = 16_000
    private var deliveredBytes = 0
    /// While warm: the seconds and the most bytes kept at the live edge.
    private var warm: (seconds: Double, maximumBytes: Int)?
    private var markedEncoding: AudioEncoding?
    private var lastTitle: String?
    /// The latest streams' starts (at most ``maximumStreamStarts``) and the first bytes of the newest,
    /// collected until its headers' end is known (nil once it is).
    private var streamStarts: [StreamStart] = []
    private var headerProbe: [UInt8]?

    /// The most header bytes kept for a stream (Vorbis' setup header is a few KB; a FLAC picture may be
    /// more: such a stream is played from its live edge without them, as its decoder can).
    static let maximumHeaderBytes = 64 * 1024
    private static let maximumStreamStarts = 8

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

    /// Keeps the station warm: nothing waits for a reader, and only the latest `seconds` of audio (by the
    /// bitrate, at most `maximumBytes`) stay. A station that was playing keeps the latest of what it buffered.
    func keepWarm(seconds: Double, maximumBytes: Int) {
        condition.withLock {
            warm = (seconds, maximumBytes)
            isPaused = false
            hasOverflowed = false
            ring.discardOldest(keeping: warmBytes)
        }
    }

    /// Whether the station is only kept warm (``keepWarm(seconds:maximumBytes:)``), not played.
    var isWarm: Bool { condition.withLock { warm != nil } }

    /// The warm station is played: its ring starts with the encoding, the headers of the stream its
    /// first byte belongs to (when that byte is past them) and its title; writes wait for the reader again.
    func play() {
        condition.withLock {
            guard warm != nil else { return }
            warm = nil
            let start = ring.readPosition
            let stream = streamStarts.last { $0.position <= start }
            guard let encoding = stream?.encoding ?? markedEncoding else { return }
            let headers = stream.map { $0.position < start ? $0.headers : [] } ?? []
            headers.withUnsafeBytes { _ = ring.reopen(prefix: $0, encoding: encoding, title: lastTitle) }
        }
    }

    /// Called with `condition` held.
    private var warmBytes: Int {
        guard let warm else { return ring.capacity }
        let seconds = warm.seconds * Double(bytesPerSecondValue)
        return seconds < Double(warm.maximumBytes) ? Int(seconds) : warm.maximumBytes
    }

    func begin(_ encoding: AudioEncoding) {
        condition.withLock {
            guard encoding != markedEncoding else { return }
            markedEncoding = encoding
            ring.mark(.encoding(encoding))
        }
    }

    func title(_ title: String) {
        condition.withLock {
            guard title != lastTitle else { return }
            lastTitle = title
            let span = Double(bytesPerSecondValue) * Self.shortestHeardTitleSeconds
            ring.mark(.title(title), supersedingTitleWithin: Int(span))
        }
    }

    /// A new stream starts: its first bytes are its headers, if its encoding has any.
    func discontinuity() {
        condition.withLock {
            ring.mark(.discontinuity)
            streamStarts.append(StreamStart(position: ring.writePosition, encoding: markedEncoding))
            if streamStarts.count > Self.maximumStreamStarts { streamStarts.removeFirst() }
            headerProbe = []
        }
    }

    func end() {}

    /// Collects a new stream's first bytes until its headers' end is known. Called with `condition` held.
    private func collectHeaders(_ bytes: UnsafeRawBufferPointer) {
        guard var probe = headerProbe, let encoding = markedEncoding, !streamStarts.isEmpty else { return }
        probe.append(contentsOf: bytes.prefix(Self.maximumHeaderBytes + 1 - probe.count))
        if let length = StreamHeaders.length(in: probe, encoding: encoding) {
            streamStarts[streamStarts.count - 1].headers = length <= Self.maximumHeaderBytes ? Array(probe[0..<length]) : []
            headerProbe = nil
        } else {
            headerProbe = probe.count > Self.maximumHeaderBytes ? nil : probe
        }
    }

    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        deliveredBytes += bytes.count
        collectHeaders(bytes)
        if warm != nil {
            defer { condition.unlock() }
            // The live edge: the new bytes go in, the oldest beyond the warm bound go.
            if !ring.writeIfRoom(bytes) {
                ring.discardOldest(keeping: 0)
                _ = ring.writeIfRoom(bytes)
            }
            ring.discardOldest(keeping: warmBytes)
            return !ring.closed
        }
        let (paused, overflowed, rate) = (isPaused, hasOverflowed, bytesPerSecondValue)
        condition.unlock()
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
