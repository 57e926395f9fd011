import Glibc
import Threads

/// The compressed-audio buffer between the network thread (writer) and the audio thread (reader).
///
/// A circular byte buffer whose storage grows on demand up to ``capacity``, so a normal
/// live stream (a few seconds of lead) costs kilobytes while a long time-shift pause may use
/// megabytes. Titles and connection boundaries are marked at byte positions, so the reader learns of them
/// when it reaches the audio that follows. All methods are thread-safe; only ``write(_:waitingAbove:)``
/// and ``read(into:timeout:)`` block.
public final class ByteRing: @unchecked Sendable {
    /// Something that happens in the stream at a byte position.
    public enum Mark: Equatable, Sendable {
        /// The audio from here on carries this ICY title.
        case title(String)
        /// A new connection starts here: the bytes before and after do not join up (restart the decoder).
        case discontinuity
        /// The bytes from here on are in this encoding (marked before a connection's first audio when it
        /// differs from the last one's): the reader switches decoders.
        case encoding(AudioEncoding)
    }

    /// What became of a write.
    public enum WriteResult: Equatable {
        case written
        /// The ring was closed (the station was switched or stopped).
        case closed
    }

    private let condition = ConditionLock()
    private var storage: [UInt8] = []
    private var head = 0
    private var stored = 0
    private var isClosed = false
    private var totalWritten: Int64 = 0
    private var totalRead: Int64 = 0
    private var marks: [(position: Int64, mark: Mark)] = []
    private var generationCounter = 0

    /// The most bytes the ring holds; writes beyond it wait (or are refused by the caller's policy).
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "ByteRing needs room for at least one byte")
        self.capacity = capacity
    }

    /// Bytes waiting to be read.
    public var count: Int { condition.withLock { stored } }

    /// Bytes ever read; positions of title marks are in this scale.
    public var readPosition: Int64 { condition.withLock { totalRead } }

    /// Changes whenever ``clear()`` discards data, so the reader knows to restart its decoder.
    public var generation: Int { condition.withLock { generationCounter } }

    /// Whether ``close()`` was called.
    public var closed: Bool { condition.withLock { isClosed } }

    /// Appends `bytes`, waiting while more than `limit` bytes (at most ``capacity``) are stored.
    /// - Returns: ``WriteResult/closed`` when the ring is closed before or while waiting.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer, waitingAbove limit: Int? = nil) -> WriteResult {
        let limit = min(limit ?? capacity, capacity)
        var offset = 0
        condition.lock()
        defer { condition.unlock() }
        while offset < bytes.count {
            while !isClosed && stored >= limit { condition.wait() }
            if isClosed { return .closed }
            let take = min(bytes.count - offset, capacity - stored, max(limit - stored, 0))
            reserve(stored + take)
            copyIn(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
            condition.broadcast()
        }
        return .written
    }

    /// Appends `bytes` only if they fit within `limit` without waiting.
    /// - Returns: false (nothing written) when they do not fit or the ring is closed.
    public func writeIfRoom(_ bytes: UnsafeRawBufferPointer, limit: Int? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = min(limit ?? capacity, capacity)
        guard !isClosed, stored + bytes.count <= limit else { return false }
        reserve(stored + bytes.count)
        copyIn(bytes)
        condition.broadcast()
        return true
    }

    /// Marks the current write position: the mark applies to the bytes written after it.
    public func mark(_ mark: Mark) {
        condition.withLock { marks.append((totalWritten, mark)) }
    }

    /// Removes and returns the marks the reader has reached.
    public func reachedMarks() -> [Mark] {
        condition.withLock {
            let count = marks.prefix(while: { $0.position <= totalRead }).count
            guard count > 0 else { return [] }
            let reached = marks.prefix(count).map(\.mark)
            marks.removeFirst(count)
            return reached
        }
    }

    /// The position of the next mark the reader has not reached, so a read can stop there.
    public var nextMarkPosition: Int64? {
        condition.withLock { marks.first?.position }
    }

    /// Reads up to `buffer.count` bytes, waiting up to `timeout` seconds for some to arrive.
    /// - Returns: the number of bytes read; 0 on timeout, or when closed and empty.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double) -> Int {
        condition.lock()
        defer { condition.unlock() }
        if stored == 0 && !isClosed {
            let deadline = ConditionLock.Deadline.after(seconds: timeout)
            while stored == 0 && !isClosed && condition.wait(until: deadline) {}
        }
        let take = min(stored, buffer.count)
        guard take > 0 else { return 0 }
        let first = min(take, storage.count - head)
        storage.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + head, byteCount: first)
            if take > first {
                (buffer.baseAddress! + first).copyMemory(from: source.baseAddress!, byteCount: take - first)
            }
        }
        head = (head + take) % storage.count
        stored -= take
        totalRead += Int64(take)
        condition.broadcast()
        return take
    }

    /// Waits up to `timeout` seconds until at least `count` bytes are stored or the ring is closed.
    /// - Returns: whether `count` bytes are there.
    public func waitUntilStored(atLeast count: Int, timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = ConditionLock.Deadline.after(seconds: timeout)
        while stored < count && !isClosed && condition.wait(until: deadline) {}
        return stored >= count
    }

    /// Discards everything stored and all pending title marks (a time-shift that ran past its bound).
    public func clear() {
        condition.withLock {
            totalRead += Int64(stored)
            head = 0
            stored = 0
            marks.removeAll()
            generationCounter += 1
            condition.broadcast()
        }
    }

    /// Wakes every waiter; later writes are refused and reads return what is left, then 0.
    public func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }

    /// Grows the storage (doubling, at most to ``capacity``) so `needed` bytes fit, unrolling the circle.
    private func reserve(_ needed: Int) {
        guard needed > storage.count else { return }
        let size = min(capacity, max(needed, storage.count * 2, 4096))
        var grown = [UInt8](repeating: 0, count: size)
        if stored > 0 {
            let first = min(stored, storage.count - head)
            grown.replaceSubrange(0..<first, with: storage[head..<(head + first)])
            if stored > first { grown.replaceSubrange(first..<stored, with: storage[0..<(stored - first)]) }
        }
        storage = grown
        head = 0
    }

    private func copyIn(_ bytes: UnsafeRawBufferPointer) {
        var tail = (head + stored) % storage.count
        var offset = 0
        storage.withUnsafeMutableBytes { target in
            while offset < bytes.count {
                let take = min(bytes.count - offset, target.count - tail)
                (target.baseAddress! + tail).copyMemory(from: bytes.baseAddress! + offset, byteCount: take)
                offset += take
                tail = (tail + take) % target.count
            }
        }
        stored += bytes.count
        totalWritten += Int64(bytes.count)
    }
}
