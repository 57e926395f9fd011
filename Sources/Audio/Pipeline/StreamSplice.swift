import Glibc

/// Joins a reconnected stream to the audio already buffered, without repeating any of it.
///
/// Icecast and SHOUTcast start every connection with a burst of the last seconds of audio, so after a
/// dropped connection the new burst repeats what the old one delivered. The splice remembers the most
/// recent audio bytes; the first bytes of a new connection are looked up in them and, when they occur
/// exactly once, the overlap is skipped and the stream continues at the byte where the old one stopped
/// (no decoder restart, nothing heard twice). Otherwise the new connection starts after a discontinuity.
/// Used by the network thread only (``SplicingSink``); public for the fuzz targets.
public struct StreamSplice {
    /// What to do with the bytes of the current connection.
    public enum Output {
        /// The bytes that follow do not continue the previous ones: restart the decoder there.
        case discontinuity
        case audio(UnsafeRawBufferPointer)
    }

    private enum State {
        case passing
        case probing
        case skipping(Int)
    }

    /// The remembered audio: filled up to ``capacity`` (its memory grows with what it holds, so a short
    /// connection, a station tuned ahead while the knob turns, never holds all of it), then circular.
    private var recent: [UInt8] = []
    private let capacity: Int
    private var recentEnd = 0
    private var recentCount = 0
    private var probe: [UInt8] = []
    private let probeLength: Int
    /// The encoding of the current connection: its repeated headers are not looked up.
    private var encoding = AudioEncoding.mpeg
    /// The most header bytes waited for before a connection is judged without them.
    private static let maximumHeaderLength = 256 * 1024
    private var state = State.passing

    /// - Parameters:
    ///   - capacity: audio bytes remembered (more than a server's burst: icecast's default is 64 KB).
    ///   - probeLength: bytes of a new connection looked up at once (long enough to be unique in music).
    ///   Both at least 1.
    public init(capacity: Int = 160 * 1024, probeLength: Int = 4096) {
        precondition(capacity > 0 && probeLength > 0, "StreamSplice remembers and looks up at least one byte")
        self.capacity = capacity
        self.probeLength = probeLength
    }

    /// A new connection begins: its first bytes (after the headers an Ogg or FLAC server repeats) will
    /// be matched against the remembered audio.
    public mutating func beginConnection(_ encoding: AudioEncoding = .mpeg, emit: (Output) -> Void) {
        self.encoding = encoding
        probe.removeAll(keepingCapacity: true)
        if recentCount == 0 {
            state = .passing
            emit(.discontinuity)
        } else {
            state = .probing
        }
    }

    /// Passes the audio bytes of the current connection on, minus any overlap with the previous one.
    public mutating func push(_ bytes: UnsafeRawBufferPointer, emit: (Output) -> Void) {
        switch state {
        case .passing:
            pass(bytes, emit: emit)
        case .skipping(let remaining):
            let skip = min(remaining, bytes.count)
            state = remaining > skip ? .skipping(remaining - skip) : .passing
            if skip < bytes.count { pass(UnsafeRawBufferPointer(rebasing: bytes[skip...]), emit: emit) }
        case .probing:
            probe.append(contentsOf: bytes)
            if probe.count >= probeLength, let headers = headerLength(), probe.count >= headers + probeLength {
                decide(skippingHeaders: headers, emit: emit)
            }
        }
    }

    /// The connection ended: bytes still held for matching are passed on after a discontinuity.
    public mutating func endConnection(emit: (Output) -> Void) {
        if case .probing = state, !probe.isEmpty {
            emit(.discontinuity)
            state = .passing
            let held = probe
            probe.removeAll(keepingCapacity: true)
            held.withUnsafeBytes { pass($0, emit: emit) }
        }
        state = .passing
    }

    /// The probe's leading header bytes, nil while they are not all there; past a bound, none.
    private func headerLength() -> Int? {
        if let length = StreamHeaders.length(in: probe, encoding: encoding) { return length }
        return probe.count > Self.maximumHeaderLength ? 0 : nil
    }

    /// Looks the audio after the headers up. On a match the headers, which the decoder has already had, are
    /// dropped with the repeated audio; otherwise everything passes after a discontinuity.
    private mutating func decide(skippingHeaders headers: Int, emit: (Output) -> Void) {
        let held = probe
        probe.removeAll(keepingCapacity: true)
        let history = linearRecent()
        let needle = Array(held[headers..<(headers + probeLength)])
        guard let offset = uniqueOffset(of: needle, in: history) else {
            state = .passing
            emit(.discontinuity)
            held.withUnsafeBytes { pass($0, emit: emit) }
            return
        }
        let overlap = history.count - offset
        let matched = held.count - headers
        if overlap >= matched {
            state = overlap > matched ? .skipping(overlap - matched) : .passing
        } else {
            state = .passing
            held.withUnsafeBytes { pass(UnsafeRawBufferPointer(rebasing: $0[(headers + overlap)...]), emit: emit) }
        }
    }

    private mutating func pass(_ bytes: UnsafeRawBufferPointer, emit: (Output) -> Void) {
        guard !bytes.isEmpty else { return }
        emit(.audio(bytes))
        remember(bytes)
    }

    private mutating func remember(_ bytes: UnsafeRawBufferPointer) {
        var tail = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        if recent.count < capacity {
            // Reserved, not touched: only the pages written become resident.
            if recent.isEmpty { recent.reserveCapacity(capacity) }
            let fits = min(capacity - recent.count, tail.count)
            recent.append(contentsOf: UnsafeRawBufferPointer(rebasing: tail[..<fits]))
            recentEnd = recent.count % capacity
            recentCount = recent.count
            guard fits < tail.count else { return }
            tail = UnsafeRawBufferPointer(rebasing: tail[fits...])
        }
        recent.withUnsafeMutableBytes { storage in
            var offset = 0
            while offset < tail.count {
                let take = min(tail.count - offset, capacity - recentEnd)
                (storage.baseAddress! + recentEnd).copyMemory(from: tail.baseAddress! + offset, byteCount: take)
                offset += take
                recentEnd = (recentEnd + take) % capacity
            }
        }
        recentCount = min(capacity, recentCount + tail.count)
    }

    private func linearRecent() -> [UInt8] {
        guard recentCount > 0 else { return [] }
        let start = (recentEnd - recentCount + recent.count) % recent.count
        if start + recentCount <= recent.count { return Array(recent[start..<(start + recentCount)]) }
        return Array(recent[start...]) + Array(recent[..<recentEnd])
    }

    /// Where `needle` occurs in `haystack`, when it occurs exactly once. Runs once per reconnect over
    /// a few hundred kilobytes: an 8-byte prefix compare filters, `memcmp` confirms.
    private func uniqueOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count >= 8, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin -> Int? in
                let head = pin.loadUnaligned(as: UInt64.self)
                var found: Int?
                for offset in 0...(hay.count - pin.count) where hay.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == head {
                    guard memcmp(hay.baseAddress! + offset, pin.baseAddress!, pin.count) == 0 else { continue }
                    if found != nil { return nil }
                    found = offset
                }
                return found
            }
        }
    }
}
