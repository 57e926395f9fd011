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
        while bytes.count - position >= ADTSHeader.fixedLength {
            if let header = ADTSHeader(bytes, at: position) {
                let end = position + header.frameLength
                if let previous, header.continues(previous) {
                    guard end <= bytes.count else { return nil }
                    return take(header, end: end)
                }
                // Lost, or the stream seems to change: believe it when the next header is where it should be.
                guard end + ADTSHeader.fixedLength <= bytes.count else { return nil }
                if let next = ADTSHeader(bytes, at: end), next.continues(header) {
                    return take(header, end: end)
                }
            }
            skipToNextSync()
        }
        return nil
    }

    /// Calls `body` with a pointer to `frame`'s bytes and their count (C decoders take a mutable pointer; nothing writes).
    public func withBytes<Result>(of frame: Frame, _ body: (UnsafeMutablePointer<UInt8>, Int) -> Result) -> Result {
        precondition(frame.range.upperBound <= bytes.count, "a frame from before the last append")
        return bytes.withUnsafeBufferPointer { body(UnsafeMutablePointer(mutating: $0.baseAddress! + frame.range.lowerBound), frame.range.count) }
    }

    private mutating func take(_ header: ADTSHeader, end: Int) -> Frame {
        let frame = Frame(header: header, range: position..<end)
        position = end
        previous = header
        return frame
    }

    /// Moves past the byte at ``position`` to the next `0xFF` (or to the last byte, which may start a sync word).
    private mutating func skipToNextSync() {
        previous = nil
        let next = bytes[(position + 1)...].firstIndex(of: 0xFF) ?? bytes.count - 1
        let target = max(position + 1, next)
        skippedBytes += target - position
        position = target
    }
}
