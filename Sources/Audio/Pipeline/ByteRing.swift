import Glibc
import Threads

/// The compressed-audio buffer between the network thread (writer) and the audio thread (reader).
///
/// A circular byte buffer whose storage grows on demand up to ``capacity``, so a normal
/// live stream (a few seconds of lead) costs kilobytes while a long time-shift pause may use
/// megabytes. Titles and connection boundaries are marked at byte positions, so the reader learns of them
/// when it reaches the audio that follows. The marks are bounded too (``maximumMarks``): a mark of the same
/// kind at the same byte replaces the earlier one, so marking while no audio is written (audio being dropped)
/// adds nothing, and a ring holding its most marks counts as full. All methods are thread-safe; only
/// ``write(_:waitingAbove:)``, ``read(into:timeout:)`` and ``waitUntilStored(atLeast:timeout:)`` block.
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

        /// Marks of one kind at one byte: a later one replaces an earlier one.
        fileprivate enum Kind {
            case title, discontinuity, encoding
        }

        fileprivate var kind: Kind {
            switch self {
            case .title: return .title
            case .discontinuity: return .discontinuity
            case .encoding: return .encoding
            }
        }
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
    /// Ordered by position; those before `firstMark` were reached and are dropped in batches (amortised O(1)).
    private var marks: [(position: Int64, mark: Mark)] = []
    private var firstMark = 0
    private var generationCounter = 0

    /// The most bytes the ring holds; writes beyond it wait (or are refused by the caller's policy).
    public let capacity: Int

    /// The most marks of all kinds the ring holds. Past `maximumMarks - 3` (room for one mark of each kind at
    /// the next byte) the ring is full as it is at ``capacity``: ``write(_:waitingAbove:)`` waits until the
    /// reader has passed marks, ``writeIfRoom(_:limit:)`` refuses. A legitimate station needs far fewer: a
    /// 2-hour time-shift of a station that changes its title every 10 s holds 720 titles.
    public static let maximumMarks = 1024
    /// One mark of each kind fits at a byte (later ones of a kind replace earlier ones there).
    private static let marksAtOneByte = 3

    public init(capacity: Int) {
        precondition(capacity > 0, "ByteRing needs room for at least one byte")
        self.capacity = capacity
    }

    /// Bytes waiting to be read.
    public var count: Int { condition.withLock { stored } }

    /// Bytes ever read; positions of title marks are in this scale.
    public var readPosition: Int64 { condition.withLock { totalRead } }

    /// Bytes ever written: where the next byte goes, in the scale of ``readPosition``.
    public var writePosition: Int64 { condition.withLock { totalWritten } }

    /// Changes whenever ``clear()`` discards data, so the reader knows to restart its decoder.
    public var generation: Int { condition.withLock { generationCounter } }

    /// Whether ``close()`` was called.
    public var closed: Bool { condition.withLock { isClosed } }

    /// Marks not yet reached by the reader (at most ``maximumMarks``).
    public var markCount: Int { condition.withLock { marks.count - firstMark } }

    /// Whether a mark of each kind still fits after the next byte. Called with `condition` held.
    private var hasMarkRoom: Bool { marks.count - firstMark <= Self.maximumMarks - Self.marksAtOneByte }

    /// Appends `bytes`, waiting while more than `limit` bytes (at most ``capacity``) are stored or the marks
    /// are at their bound (``maximumMarks``).
    /// - Returns: ``WriteResult/closed`` when the ring is closed before or while waiting.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer, waitingAbove limit: Int? = nil) -> WriteResult {
        let limit = min(limit ?? capacity, capacity)
        var offset = 0
        condition.lock()
        defer { condition.unlock() }
        while offset < bytes.count {
            while !isClosed && (stored >= limit || !hasMarkRoom) { condition.wait() }
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
    /// - Returns: false (nothing written) when they do not fit, the marks are at their bound, or the ring is closed.
    public func writeIfRoom(_ bytes: UnsafeRawBufferPointer, limit: Int? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = min(limit ?? capacity, capacity)
        guard !isClosed, hasMarkRoom, stored + bytes.count <= limit else { return false }
        reserve(stored + bytes.count)
        copyIn(bytes)
        condition.broadcast()
        return true
    }

    /// Marks the current write position: the mark applies to the bytes written after it.
    ///
    /// A mark of the same kind already at this byte is replaced (nothing was written between them, so only the
    /// newer can ever apply). A title still in the ring (not taken by ``reachedMarks()``) whose own audio, up to
    /// here, is shorter than `span` bytes is replaced by the newer title, at this byte: the listener would not
    /// have heard it. So a title per metadata block leaves one pending title mark, at the latest title.
    public func mark(_ mark: Mark, supersedingTitleWithin span: Int = 0) {
        condition.withLock {
            var index = marks.count - 1
            while index >= firstMark && marks[index].position == totalWritten {
                if marks[index].mark.kind == mark.kind {
                    marks[index].mark = mark
                    return
                }
                index -= 1
            }
            if case .title = mark, let last = marks.last, marks.count > firstMark, case .title = last.mark,
               totalWritten - last.position < Int64(span) {
                marks[marks.count - 1] = (totalWritten, mark)
                return
            }
            // Within the bound: every write leaves room for a mark of each kind at its end (`hasMarkRoom`).
            marks.append((totalWritten, mark))
        }
    }

    /// Removes and returns the marks the reader has reached.
    public func reachedMarks() -> [Mark] {
        condition.withLock {
            var reached: [Mark] = []
            while firstMark < marks.count && marks[firstMark].position <= totalRead {
                reached.append(marks[firstMark].mark)
                firstMark += 1
            }
            guard !reached.isEmpty else { return [] }
            if firstMark == marks.count {
                marks.removeAll(keepingCapacity: true)
                firstMark = 0
            } else if firstMark >= 64 && firstMark * 2 >= marks.count {
                marks.removeFirst(firstMark)
                firstMark = 0
            }
            // A writer may be waiting for room among the marks.
            condition.broadcast()
            return reached
        }
    }

    /// The position of the next mark the reader has not reached, so a read can stop there.
    public var nextMarkPosition: Int64? {
        condition.withLock { firstMark < marks.count ? marks[firstMark].position : nil }
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

    /// Waits up to `timeout` seconds until at least `count` bytes are stored, the marks are at their bound (no
    /// more comes until the reader reads on) or the ring is closed.
    /// - Returns: whether `count` bytes are there, or the marks are at their bound.
    public func waitUntilStored(atLeast count: Int, timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = ConditionLock.Deadline.after(seconds: timeout)
        while stored < count && hasMarkRoom && !isClosed && condition.wait(until: deadline) {}
        return stored >= count || !hasMarkRoom
    }

    /// Discards everything stored (a time-shift that ran past its bound) and the marks in it, except the
    /// latest encoding and title among them: the audio that comes next is the same stream, so they apply
    /// to it (marked where it starts).
    public func clear() {
        condition.withLock {
            let pending = marks[firstMark...].map(\.mark)
            var carried: [(position: Int64, mark: Mark)] = []
            for kind in [Mark.Kind.encoding, .title] {
                if let latest = pending.last(where: { $0.kind == kind }) { carried.append((totalWritten, latest)) }
            }
            marks = carried
            firstMark = 0
            totalRead += Int64(stored)
            head = 0
            stored = 0
            generationCounter += 1
            condition.broadcast()
        }
    }

    // MARK: A warm station's live edge

    /// Keeps only the latest `count` stored bytes (a warm station's live edge: nobody reads it), and gives
    /// back storage over twice what is kept. The marks among the bytes dropped go, but the latest encoding
    /// and title, which move to the new read position (a mark of their kind already there is newer). Never waits.
    public func discardOldest(keeping count: Int) {
        condition.withLock {
            let drop = stored - max(count, 0)
            if drop > 0 {
                head = (head + drop) % storage.count
                stored -= drop
                totalRead += Int64(drop)
                var index = firstMark
                var latest: [Mark] = []
                while index < marks.count && marks[index].position < totalRead {
                    let mark = marks[index].mark
                    if mark.kind != .discontinuity {
                        latest.removeAll { $0.kind == mark.kind }
                        latest.append(mark)
                    }
                    index += 1
                }
                let atStart = marks[index...].prefix { $0.position == totalRead }.map(\.mark.kind)
                let carried = latest.filter { !atStart.contains($0.kind) }.map { (position: totalRead, mark: $0) }
                marks = carried + marks[index...]
                firstMark = 0
                condition.broadcast()
            }
            let kept = max(stored * 2, 4096)
            if storage.count > kept * 2 { resize(to: kept) }
        }
    }

    /// Makes the next byte read the start of a stream (a warm station is played): `prefix`, the stream's
    /// header pages (for audio cut from its middle; may be empty), goes before the stored bytes, and
    /// `encoding` before it. Marks at the read position but titles go (a discontinuity there would restart
    /// the decoder between the headers and the audio). `title`, the title of the audio there when no mark
    /// in the ring says one, is marked with the encoding.
    /// - Returns: false (nothing changed) when `prefix` does not fit within ``capacity``.
    @discardableResult
    public func reopen(prefix: UnsafeRawBufferPointer, encoding: AudioEncoding, title: String?) -> Bool {
        condition.withLock {
            guard stored + prefix.count <= capacity else { return false }
            let oldStart = totalRead
            if prefix.count > 0 {
                reserve(stored + prefix.count)
                head = (head - prefix.count % storage.count + storage.count) % storage.count
                copy(prefix, to: head)
                stored += prefix.count
                totalRead -= Int64(prefix.count)
            }
            let pending = marks[firstMark...]
            var opening: [(position: Int64, mark: Mark)] = [(totalRead, .encoding(encoding))]
            if let title, !pending.contains(where: { $0.mark.kind == .title }) { opening.append((totalRead, .title(title))) }
            marks = opening + pending.filter { $0.position != oldStart || $0.mark.kind == .title }
            firstMark = 0
            condition.broadcast()
            return true
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
        resize(to: min(capacity, max(needed, storage.count * 2, 4096)))
    }

    /// New storage of `size` bytes (at least ``stored``) holding the stored bytes from its start.
    private func resize(to size: Int) {
        var resized = [UInt8](repeating: 0, count: size)
        if stored > 0 {
            let first = min(stored, storage.count - head)
            resized.replaceSubrange(0..<first, with: storage[head..<(head + first)])
            if stored > first { resized.replaceSubrange(first..<stored, with: storage[0..<(stored - first)]) }
        }
        storage = resized
        head = 0
    }

    private func copyIn(_ bytes: UnsafeRawBufferPointer) {
        copy(bytes, to: (head + stored) % storage.count)
        stored += bytes.count
        totalWritten += Int64(bytes.count)
    }

    /// Copies `bytes` into the storage from `start` on, round the circle.
    private func copy(_ bytes: UnsafeRawBufferPointer, to start: Int) {
        var position = start
        var offset = 0
        storage.withUnsafeMutableBytes { target in
            while offset < bytes.count {
                let take = min(bytes.count - offset, target.count - position)
                (target.baseAddress! + position).copyMemory(from: bytes.baseAddress! + offset, byteCount: take)
                offset += take
                position = (position + take) % target.count
            }
        }
    }
}
