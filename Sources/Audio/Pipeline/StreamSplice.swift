import Glibc

/// Joins a reconnected stream to the audio already buffered, without repeating any of it.
///
/// Icecast and SHOUTcast start every connection with a burst of the last seconds of audio, so after a
/// dropped connection the new burst repeats what the old one delivered. The splice remembers the most
/// recent audio bytes; the first bytes of a new connection are looked up in them and, when they occur
/// exactly once, the overlap is skipped and the stream continues at the byte where the old one stopped
/// (no decoder restart, nothing heard twice). Otherwise the new connection starts after a discontinuity.
/// Used by the network thread only.
struct StreamSplice {
    /// What to do with the bytes of the current connection.
    enum Output {
        /// The bytes that follow do not continue the previous ones: restart the decoder there.
        case discontinuity
        case audio(UnsafeRawBufferPointer)
    }

    private enum State {
        case passing
        case probing
        case skipping(Int)
    }

    private var recent: [UInt8]
    private var recentEnd = 0
    private var recentCount = 0
    private var probe: [UInt8] = []
    private let probeLength: Int
    /// Bytes at the end of the probe looked up when its start is not in the history (headers first).
    private static let tailLength = 1024
    private var state = State.passing

    /// - Parameters:
    ///   - capacity: audio bytes remembered (more than a server's burst: icecast's default is 64 KB).
    ///   - probeLength: bytes of a new connection looked up at once (long enough to be unique in music).
    init(capacity: Int = 160 * 1024, probeLength: Int = 4096) {
        recent = [UInt8](repeating: 0, count: capacity)
        self.probeLength = probeLength
    }

    /// A new connection begins: its first bytes will be matched against the remembered audio.
    mutating func beginConnection(emit: (Output) -> Void) {
        probe.removeAll(keepingCapacity: true)
        if recentCount == 0 {
            state = .passing
            emit(.discontinuity)
        } else {
            state = .probing
        }
    }

    /// Passes the audio bytes of the current connection on, minus any overlap with the previous one.
    mutating func push(_ bytes: UnsafeRawBufferPointer, emit: (Output) -> Void) {
        switch state {
        case .passing:
            pass(bytes, emit: emit)
        case .skipping(let remaining):
            let skip = min(remaining, bytes.count)
            state = remaining > skip ? .skipping(remaining - skip) : .passing
            if skip < bytes.count { pass(UnsafeRawBufferPointer(rebasing: bytes[skip...]), emit: emit) }
        case .probing:
            probe.append(contentsOf: bytes)
            if probe.count >= probeLength { decide(emit: emit) }
        }
    }

    /// The connection ended: bytes still held for matching are passed on after a discontinuity.
    mutating func endConnection(emit: (Output) -> Void) {
        if case .probing = state, !probe.isEmpty {
            emit(.discontinuity)
            state = .passing
            let held = probe
            probe.removeAll(keepingCapacity: true)
            held.withUnsafeBytes { pass($0, emit: emit) }
        }
        state = .passing
    }

    private mutating func decide(emit: (Output) -> Void) {
        let held = probe
        probe.removeAll(keepingCapacity: true)
        let history = linearRecent()
        // The burst usually starts the connection; an Ogg or FLAC server first repeats the stream's
        // headers, so the probe's tail is looked up too (the headers, already decoded, are dropped).
        let tailLength = min(Self.tailLength, held.count)
        var match = uniqueOffset(of: Array(held.prefix(probeLength)), in: history).map { (offset: $0, start: 0) }
        if match == nil, held.count > tailLength {
            match = uniqueOffset(of: Array(held.suffix(tailLength)), in: history).map { (offset: $0, start: held.count - tailLength) }
        }
        guard let (offset, start) = match else {
            state = .passing
            emit(.discontinuity)
            held.withUnsafeBytes { pass($0, emit: emit) }
            return
        }
        let overlap = history.count - offset
        let matched = held.count - start
        if overlap >= matched {
            state = overlap > matched ? .skipping(overlap - matched) : .passing
        } else {
            state = .passing
            held.withUnsafeBytes { pass(UnsafeRawBufferPointer(rebasing: $0[(start + overlap)...]), emit: emit) }
        }
    }

    private mutating func pass(_ bytes: UnsafeRawBufferPointer, emit: (Output) -> Void) {
        guard !bytes.isEmpty else { return }
        emit(.audio(bytes))
        remember(bytes)
    }

    private mutating func remember(_ bytes: UnsafeRawBufferPointer) {
        let capacity = recent.count
        let tail = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
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
