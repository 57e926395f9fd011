import Foundation
import Logging
import WavedialCore

/// Writes what the radio must remember on a thread of its own (`wd-store`), so the controller's queue never
/// waits for the SD card: a detent is never behind an fsync. What it writes: the ``ApplianceState`` (last
/// station, volume, band), the play history, the song history, the dial plans and the favorite button's
/// changes. A burst is coalesced: of the appliance states or the plans of one band that wait while a write is
/// under way, only the latest is written. Each change returns a ticket; a control request's reply waits for
/// the tickets of what it changed (``waitUntilWritten(_:timeout:)``), so an acknowledged change survives a
/// pulled plug, and at shutdown ``flush(timeout:)`` waits for everything.
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

    private struct Pending {
        var state: ApplianceState?
        var plans: [DialBandKind: DialPlan] = [:]
        var favorites: [FavoriteChange] = []
        var plays: [(Station, Date)] = []
        var songs: [SongHistoryEntry] = []

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

    init(database: WavedialDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// The ticket of the last change handed over.
    var latestTicket: Ticket { condition.withLock { submitted } }

    /// Saves `state`; a later one handed over before it is written replaces it.
    @discardableResult
    func save(_ state: ApplianceState) -> Ticket { submit { $0.state = state } }

    /// Stores a band's plan; a later plan of the same band replaces it.
    @discardableResult
    func store(_ plan: DialPlan) -> Ticket { submit { $0.plans[plan.kind] = plan } }

    /// Adds `station` to the favorites or removes it; `done` hears how it went, on the store's thread.
    @discardableResult
    func change(_ favorite: FavoriteChange) -> Ticket { submit { $0.favorites.append(favorite) } }

    @discardableResult
    func recordPlay(of station: Station, at date: Date) -> Ticket { submit { $0.plays.append((station, date)) } }

    @discardableResult
    func recordSongs(_ entries: [SongHistoryEntry]) -> Ticket { submit { $0.songs += entries } }

    /// Waits until the change with `ticket` (and every one before it) is written, at most `timeout` seconds.
    /// - Returns: whether it was.
    @discardableResult
    func waitUntilWritten(_ ticket: Ticket, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while written < ticket {
            guard condition.wait(until: deadline) else { return written >= ticket }
        }
        return true
    }

    /// Waits until everything handed over so far is written. - Returns: whether it was, within `timeout` seconds.
    func flush(timeout: Double) -> Bool { waitUntilWritten(latestTicket, timeout: timeout) }

    private func submit(_ change: (inout Pending) -> Void) -> Ticket {
        let (ticket, start) = condition.withLock { () -> (Ticket, Bool) in
            change(&pending)
            submitted += 1
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
            write(batch)
            condition.withLock {
                written = upTo
                condition.broadcast()
            }
        }
    }

    private func write(_ batch: Pending) {
        for plan in batch.plans.values {
            attempt("dial plan not saved") { try database.storeDialPlan(plan) }
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
            }
        }
        if let state = batch.state {
            attempt("appliance state not saved") { try database.saveApplianceState(state) }
        }
        for (station, date) in batch.plays {
            attempt("play history not saved") { try database.recordPlay(of: station, at: date) }
        }
        if !batch.songs.isEmpty {
            attempt("song history not saved") { try database.recordSongs(batch.songs) }
        }
    }

    private func attempt(_ failure: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            logger.error("\(failure)", metadata: ["error": "\(error)"])
        }
    }
}
