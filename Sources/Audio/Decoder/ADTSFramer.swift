/// Cuts a pushed byte stream into whole ADTS frames, skipping whatever lies between them.
///
/// A connection may start mid-frame and a station may send junk (a torn reconnect, an HTML error page), and
/// `0xFFF` is common inside AAC data. So once the framer has lost its place, a header counts only when the
/// next frame's header follows where its length says; while frames follow each other, each one is taken
/// as it comes. A frame whose profile, rate or channels differ from the last one's must be confirmed the
/// same way. Holds at most ``capacity`` bytes. Not thread-safe.
public struct ADTSFramer {
    /// One whole frame in ``ADTSFramer/bytes``.
    public struct Frame: Equatable, Sendable {
        public var header: ADTSHeader
        /// Where the frame (header included) lies in ``ADTSFramer/bytes``, valid until the next ``ADTSFramer/append(_:)``.
        public var range: Range<Int>
    }

    /// The most bytes kept: far more than a frame (at most 8191 bytes) needs; a caller that feeds without
    /// reading loses the oldest bytes beyond it.
    public static let capacity = 256 * 1024

    /// The bytes fed and not yet dropped; frames are ranges of it.
    public private(set) var bytes: [UInt8] = []
    /// Where the next frame (or the search for one) starts.
    private var position = 0
    /// The last frame's header while frames follow each other without a gap; nil once the place is lost.
    private var previous: ADTSHeader?
    /// Bytes skipped as junk since the last ``reset()``, for tests and diagnostics.
    public private(set) var skippedBytes = 0

    public init() {}

    /// Appends stream bytes, first dropping the ones already framed or skipped.
    public mutating func append(_ newBytes: UnsafeRawBufferPointer) {
        if position > 0 {
            bytes.removeSubrange(0..<position)
            position = 0
        }
        bytes.append(contentsOf: newBytes)
        if bytes.count > Self.capacity {
            let dropped = bytes.count - Self.capacity
            bytes.removeSubrange(0..<dropped)
            skippedBytes += dropped
            previous = nil
        }
    }

    /// Forgets every byte and the stream's place (a new connection, a station switch).
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        position = 0
        previous = nil
        skippedBytes = 0
    }

    /// The next whole frame, nil when more bytes are needed to find or confirm one. Skips junk before it.
    public mutating func nextFrame() -> Frame? {
        guard bytes.count - position >= ADTSHeader.fixedLength else { return nil }
        if let previous, let header = ADTSHeader(bytes, at: position), header.continues(previous) {
            let end = position + header.frameLength
            return end <= bytes.count ? take(header, at: position, end: end) : nil
        }
        // Lost, or the stream seems to change: the first header that the next one confirms. A header whose
        // confirmation is not here yet keeps its bytes, but a later confirmed one wins (a fake length can
        // point up to 8 KB ahead).
        var candidate = position
        var waiting: Int?
        while bytes.count - candidate >= ADTSHeader.fixedLength {
            if let header = ADTSHeader(bytes, at: candidate) {
                let end = candidate + header.frameLength
                if end + ADTSHeader.fixedLength > bytes.count {
                    if waiting == nil { waiting = candidate }
                } else if let next = ADTSHeader(bytes, at: end), next.continues(header) {
                    return take(header, at: candidate, end: end)
                }
            }
            candidate = bytes[(candidate + 1)...].firstIndex(of: 0xFF) ?? bytes.count
        }
        skip(to: waiting ?? candidate)
        return nil
    }

    /// Calls `body` with a pointer to `frame`'s bytes and their count (C decoders take a mutable pointer; nothing writes).
    public func withBytes<Result>(of frame: Frame, _ body: (UnsafeMutablePointer<UInt8>, Int) -> Result) -> Result {
        precondition(frame.range.upperBound <= bytes.count, "a frame from before the last append")
        return bytes.withUnsafeBufferPointer { body(UnsafeMutablePointer(mutating: $0.baseAddress! + frame.range.lowerBound), frame.range.count) }
    }

    private mutating func take(_ header: ADTSHeader, at start: Int, end: Int) -> Frame {
        skip(to: start)
        position = end
        previous = header
        return Frame(header: header, range: start..<end)
    }

    /// Drops the bytes before `target` as junk; the stream's place is lost if any were.
    private mutating func skip(to target: Int) {
        guard target > position else { return }
        skippedBytes += target - position
        position = target
        previous = nil
    }
}
