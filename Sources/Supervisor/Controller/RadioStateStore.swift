import Foundation
import Logging
import WavedialCore

/// Writes what the radio must remember on a thread of its own (`wd-store`), so the controller's queue never
/// waits for the SD card: a detent is never behind an fsync. What it writes: the ``ApplianceState`` (last
/// station, volume, band), the play history, the song history, the dial plans and the favorite button's
/// changes. A burst is coalesced: of the appliance states or the plans of one band that wait while a write is
/// under way, only the latest is written. Each change returns a ticket; a control request's reply waits for
/// the tickets of what it changed (``outcome(after:upTo:timeout:)``) and hears whether they are on disk, so an
/// acknowledged change survives a pulled plug and a failed one is answered as failed; at shutdown
/// ``flush(timeout:)`` waits for everything.
///
/// Any thread may hand it changes; they are written in the order given (the plans first, then the favorites,
/// the appliance state and the histories of one batch).
final class RadioStateStore: @unchecked Sendable {
    /// Increases with every change handed over; a change is written once ``writtenTicket`` reaches its ticket.
    typealias Ticket = UInt64

    /// A favorite button's change: added or removed, and how it went (on the store's thread).
    struct FavoriteChange {
        let station: Station
        let typed: Bool
        let add: Bool
        let done: (Result<Void, Error>) -> Void
    }

    /// Whether the changes of some tickets reached the disk.
    enum Outcome: Equatable {
        case written
        /// A write failed: what was not saved and the database's words.
        case failed(String)
        /// Still not written when the wait ended (a disk that hangs).
        case timedOut
    }

    /// What a batch holds, each part with the tickets of the changes it came from.
    private enum Part: Hashable {
        case state, plan(DialBandKind), favorite, play, song
    }

    private struct Pending {
        var state: ApplianceState?
        var plans: [DialBandKind: DialPlan] = [:]
        var favorites: [FavoriteChange] = []
        var plays: [(Station, Date)] = []
        var songs: [SongHistoryEntry] = []
        var tickets: [Part: [Ticket]] = [:]

        var isEmpty: Bool { state == nil && plans.isEmpty && favorites.isEmpty && plays.isEmpty && songs.isEmpty }
    }

    private let database: WavedialDatabase
    private let logger: Logger
    private let queue = DispatchQueue(label: "wd-store", qos: .userInitiated)
    /// Guards every field below.
    private let condition = NSCondition()
    private var pending = Pending()
    private var submitted: Ticket = 0
    private var written: Ticket = 0
    private var draining = false
    /// The tickets whose change failed to write, with why; the oldest dropped past ``failuresKept``.
    private var failures: [Ticket: String] = [:]
    /// The appliance state the database holds: the last one written, or the one read at start.
    private var confirmed: ApplianceState
    private static let failuresKept = 1024

    /// - Parameter stored: the appliance state the database holds now.
    init(database: WavedialDatabase, stored: ApplianceState, logger: Logger) {
        self.database = database
        confirmed = stored
        self.logger = logger
    }

    /// The appliance state on disk: what the radio goes back to when a change of it could not be written.
    var confirmedState: ApplianceState { condition.withLock { confirmed } }

    /// The ticket of the last change handed over.
    var latestTicket: Ticket { condition.withLock { submitted } }

    /// Saves `state`; a later one handed over before it is written replaces it.
    @discardableResult
    func save(_ state: ApplianceState) -> Ticket { submit(.state) { $0.state = state } }

    /// Stores a band's plan; a later plan of the same band replaces it.
    @discardableResult
    func store(_ plan: DialPlan) -> Ticket { submit(.plan(plan.kind)) { $0.plans[plan.kind] = plan } }

    /// Adds `station` to the favorites or removes it; `done` hears how it went, on the store's thread.
    @discardableResult
    func change(_ favorite: FavoriteChange) -> Ticket { submit(.favorite) { $0.favorites.append(favorite) } }

    @discardableResult
    func recordPlay(of station: Station, at date: Date) -> Ticket { submit(.play) { $0.plays.append((station, date)) } }

    @discardableResult
    func recordSongs(_ entries: [SongHistoryEntry]) -> Ticket { submit(.song) { $0.songs += entries } }

    /// Waits, at most `timeout` seconds, until the changes with the tickets after `first` up to `last` (and every
    /// one before them) are written, and tells whether all of them reached the disk.
    func outcome(after first: Ticket, upTo last: Ticket, timeout: Double) -> Outcome {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while written < last {
            guard condition.wait(until: deadline) else { return written >= last ? failure(after: first, upTo: last) : .timedOut }
        }
        return failure(after: first, upTo: last)
    }

    /// Waits until everything handed over so far is written. - Returns: whether it was, within `timeout` seconds.
    func flush(timeout: Double) -> Bool { outcome(after: 0, upTo: latestTicket, timeout: timeout) != .timedOut }

    /// Called with `condition` held.
    private func failure(after first: Ticket, upTo last: Ticket) -> Outcome {
        guard first < last, let failed = failures.first(where: { first < $0.key && $0.key <= last }) else { return .written }
        return .failed(failed.value)
    }

    private func submit(_ part: Part, _ change: (inout Pending) -> Void) -> Ticket {
        let (ticket, start) = condition.withLock { () -> (Ticket, Bool) in
            change(&pending)
            submitted += 1
            pending.tickets[part, default: []].append(submitted)
            defer { draining = true }
            return (submitted, !draining)
        }
        if start { queue.async { [self] in drain() } }
        return ticket
    }

    /// Writes batches until nothing waits: what arrives during a write is the next batch.
    private func drain() {
        while true {
            let (batch, upTo) = condition.withLock { () -> (Pending, Ticket) in
                defer { pending = Pending() }
                if pending.isEmpty { draining = false }
                return (pending, submitted)
            }
            if batch.isEmpty { return }
            let failed = write(batch)
            condition.withLock {
                for (part, reason) in failed {
                    for ticket in batch.tickets[part] ?? [] { failures[ticket] = reason }
                }
                if failed[.state] == nil, let state = batch.state { confirmed = state }
                if failures.count > Self.failuresKept, let oldest = failures.keys.min() { failures[oldest] = nil }
                written = upTo
                condition.broadcast()
            }
        }
    }

    /// Writes `batch`. - Returns: the parts that failed, with what was not saved and why.
    private func write(_ batch: Pending) -> [Part: String] {
        var failed: [Part: String] = [:]
        for plan in batch.plans.values {
            failed[.plan(plan.kind)] = attempt("dial plan not saved") { try database.storeDialPlan(plan) }
        }
        for favorite in batch.favorites {
            do {
                if favorite.add {
                    _ = try database.addFavorite(favorite.station, typed: favorite.typed)
                } else {
                    _ = try database.removeFavorite(favorite.station.stationuuid)
                }
                favorite.done(.success(()))
            } catch {
                logger.error("favorite not saved", metadata: ["station.uuid": "\(favorite.station.stationuuid)", "error": "\(error)"])
                favorite.done(.failure(error))
                failed[.favorite] = "favorite not saved: \(error)"
            }
        }
        if let state = batch.state {
            failed[.state] = attempt("state not saved") { try database.saveApplianceState(state) }
        }
        for (station, date) in batch.plays {
            if let reason = attempt("play history not saved", { try database.recordPlay(of: station, at: date) }) { failed[.play] = reason }
        }
        if !batch.songs.isEmpty {
            failed[.song] = attempt("song history not saved") { try database.recordSongs(batch.songs) }
        }
        return failed
    }

    /// - Returns: nil when `body` wrote, else `failure` and the database's words (also logged).
    private func attempt(_ failure: String, _ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            logger.error("\(failure)", metadata: ["error": "\(error)"])
            return "\(failure): \(error)"
        }
    }
}
