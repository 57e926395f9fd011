import Foundation
import WavedialCore

/// Song titles on their way to the song history, kept to what an SD card should take.
///
/// At most one entry a station every ``stationInterval``: a title heard sooner waits, replaced by any
/// newer one, and is taken when its station's 10 s are up, so a station that retitles every second
/// records the title standing at the end of each 10 s and a song that stays is kept. Entries go to the
/// database at most once every ``writeInterval``: a title after a quiet minute at once, later ones with
/// the next write. A pulled plug loses at most that minute. Pure: the controller passes its monotonic
/// nanoseconds in, on its queue.
struct SongHistoryBuffer {
    /// One entry a station at most this often (nanoseconds).
    static let stationInterval: UInt64 = 10_000_000_000
    /// One write at most this often (nanoseconds).
    static let writeInterval: UInt64 = 60_000_000_000
    /// Entries kept at most between writes (as many as the history keeps), however fast stations change.
    static let capacity = WavedialDatabase.historyLimit

    /// A station's last entry: when it was taken (monotonic) and the time it was stamped with.
    private struct Taken {
        var at: UInt64
        var heardAt: Date
    }

    private var taken: [String: Taken] = [:]
    private var waiting: [String: SongHistoryEntry] = [:]
    private var pending: [SongHistoryEntry] = []
    private var lastWrite: UInt64?

    /// A title heard at monotonic time `now`.
    mutating func hear(_ song: SongHistoryEntry, at now: UInt64) {
        if let last = taken[song.stationuuid], now &- last.at < Self.stationInterval {
            waiting[song.stationuuid] = song
        } else {
            take(song, at: now)
        }
    }

    /// The entries to write now, oldest first: empty unless some are pending and nothing was written
    /// for ``writeInterval``. What it returns counts as written.
    mutating func takeDue(at now: UInt64) -> [SongHistoryEntry] {
        takeWaiting(at: now)
        // A station's last entry matters for its 10 s; kept a minute against clock skew in the stamps.
        taken = taken.filter { now &- $0.value.at < Self.writeInterval }
        guard !pending.isEmpty, lastWrite.map({ now &- $0 >= Self.writeInterval }) ?? true else { return [] }
        return takePending(at: now)
    }

    /// Every entry not written yet (the radio stops). A title still within its station's 10 s is
    /// left out: it would break the one-in-10-s rule, and was heard for less than that.
    mutating func takeAll(at now: UInt64) -> [SongHistoryEntry] {
        takeWaiting(at: now)
        waiting.removeAll()
        return takePending(at: now)
    }

    /// Takes the waiting titles whose station's 10 s are up, in the order they were heard.
    private mutating func takeWaiting(at now: UInt64) {
        let due = waiting.values.filter { now &- (taken[$0.stationuuid]?.at ?? 0) >= Self.stationInterval }
        for song in due.sorted(by: { $0.heardAt < $1.heardAt }) { take(song, at: now) }
    }

    private mutating func takePending(at now: UInt64) -> [SongHistoryEntry] {
        lastWrite = now
        defer { pending.removeAll() }
        return pending
    }

    /// Stamps `song` no earlier than 10 s after its station's last entry: a title that waited stands
    /// from the moment it was taken, so the history itself shows one entry in 10 s.
    private mutating func take(_ song: SongHistoryEntry, at now: UInt64) {
        var entry = song
        if let last = taken[song.stationuuid] {
            entry.heardAt = max(song.heardAt, last.heardAt.addingTimeInterval(Double(Self.stationInterval) / 1e9))
        }
        waiting[song.stationuuid] = nil
        taken[song.stationuuid] = Taken(at: now, heardAt: entry.heardAt)
        pending.append(entry)
        if pending.count > Self.capacity { pending.removeFirst(pending.count - Self.capacity) }
    }
}
