import Dispatch
import Logging
import Threads

/// The stations the player keeps warm (``Player/warm(_:budgetKbps:)``): each a ``StationSession`` whose
/// ring holds only its live edge (``RingWriter/keepWarm(seconds:maximumBytes:)``: compressed audio, no
/// decoder), handed to the player when it tunes to one.
///
/// Which ones: the wanted stations in their order, but the one playing, while their bitrates (announced,
/// else measured, else ``WarmSettings/assumedKbps``) fit the budget; one that would take them past it is
/// skipped. New connections are made only once the playing station has been heard, so they never compete
/// with its start. All are dropped when the player has been paused, stopped or idle for
/// ``WarmSettings/idleSeconds`` (and come back when a station plays again), and for a while
/// (``WarmSettings/slowLinkRetry``) when the link proves too slow for them and the playing station: a
/// stream that has been connected for a whole ``Throughput/window`` delivered less than ``slowRatio`` of
/// its bitrate. A warm station that fails is dropped without a word to the player's status and tried again
/// later (``WarmSettings/retry``).
///
/// All methods may be called from any thread; the upkeep runs on its own queue (`wd-warm`), once a second
/// while there is anything to keep and at once after a change.
final class WarmStations: @unchecked Sendable {
    /// What the player is doing, as the upkeep needs to know it.
    struct Listening {
        /// The session playing (also while paused); nil when stopped or idle.
        var session: StationSession?
        /// A station plays: not paused, stopped or failed.
        var active: Bool
        /// The playing station has been heard since it was tuned.
        var heard: Bool
        /// Its stream is connected.
        var connected: Bool
        /// Stations switched away from that the audio thread still fades out: they come back through
        /// ``offer(_:streamName:connected:)``, so no new connection is made for them meanwhile.
        var leaving: [PlayableStation] = []
    }

    /// A warm session handed to the player, with what its events said so far.
    struct Adoption {
        let session: StationSession
        let streamName: String?
        let connected: Bool
    }

    /// The playing station's stream as the upkeep measures it.
    private struct PlayingStream {
        let session: ObjectIdentifier
        var connectedSince: Double?
        var throughput = Throughput()
    }

    private struct Entry {
        let session: StationSession
        var streamName: String?
        var connectedSince: Double?
        var announcedKbps: Int?
        var throughput = Throughput()
    }

    /// A stream delivering less than this share of its bitrate over a whole window is starved.
    static let slowRatio = 0.75
    /// Seconds after a connection before its rate counts (Icecast's burst comes first).
    static let settleSeconds = 5.0
    /// The most stations wanted at once.
    static let maximumWanted = 16

    private let settings: WarmSettings
    private let logger: Logger
    private let makeSession: (PlayableStation) -> StationSession
    private let startSession: (StationSession) -> Void
    private let listening: () -> Listening
    private let queue = DispatchQueue(label: "wd-warm")
    private let lock = ConditionLock()
    // Guarded by `lock`.
    private var wanted: [PlayableStation] = []
    private var budgetKbps = 0
    private var entries: [String: Entry] = [:]
    private var retries: [String: (attempts: Int, at: Double)] = [:]
    private var idleSince: Double?
    private var slowLink: (attempts: Int, until: Double)?
    private var playing: PlayingStream?
    private var timer: DispatchSourceTimer?
    private var isShutDown = false

    /// - Parameters:
    ///   - makeSession: a session for a station, reporting its events to the player (which passes warm
    ///     ones to ``handle(_:from:)``).
    ///   - startSession: starts a session's network thread where the player waits for it.
    ///   - listening: what the player is doing (called on the upkeep's queue, never with this object's lock held).
    init(settings: WarmSettings, logger: Logger, makeSession: @escaping (PlayableStation) -> StationSession,
         startSession: @escaping (StationSession) -> Void, listening: @escaping () -> Listening) {
        self.settings = settings
        self.logger = logger
        self.makeSession = makeSession
        self.startSession = startSession
        self.listening = listening
    }

    /// Replaces the wanted stations (in order of preference) and the budget in kbit/s.
    func want(_ stations: [PlayableStation], budgetKbps: Int) {
        lock.withLock {
            wanted = Array(stations.prefix(Self.maximumWanted))
            self.budgetKbps = max(budgetKbps, 0)
        }
        playerChanged()
    }

    /// Whether `station` is wanted warm (a station tuned away from then stays warm).
    func wants(_ station: PlayableStation) -> Bool { lock.withLock { wanted.contains(station) } }

    /// Hands the warm session of `station` over to the player, when there is one.
    func take(_ station: PlayableStation) -> Adoption? {
        lock.withLock {
            guard let entry = entries[station.id], entry.session.station == station else { return nil }
            entries[station.id] = nil
            return Adoption(session: entry.session, streamName: entry.streamName, connected: entry.connectedSince != nil)
        }
    }

    /// A session the player no longer plays: kept warm when its station is wanted (the next upkeep applies
    /// the budget), else cancelled.
    func offer(_ session: StationSession, streamName: String?, connected: Bool) {
        let kept = lock.withLock { () -> Bool in
            guard !isShutDown, wanted.contains(session.station), entries[session.station.id] == nil else { return false }
            session.keepWarm()
            entries[session.station.id] = Entry(session: session, streamName: streamName,
                                                connectedSince: connected ? StationSession.now : nil)
            return true
        }
        if kept { playerChanged() } else { session.cancel() }
    }

    /// The player tuned, paused, resumed, stopped or was first heard: the upkeep runs now.
    func playerChanged() {
        lock.withLock {
            guard !isShutDown, timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
            timer.setEventHandler { [weak self] in self?.upkeep() }
            timer.resume()
            self.timer = timer
        }
        queue.async { [weak self] in self?.upkeep() }
    }

    /// An event of a warm session, which the player's status never hears. - Returns: whether `session` is warm.
    func handle(_ event: StationSession.Event, from session: StationSession) -> Bool {
        let outcome = lock.withLock { () -> Bool? in
            guard let id = entries.first(where: { $0.value.session === session })?.key else { return nil }
            switch event {
            case .connecting, .stage:
                break
            case .connected(let response):
                entries[id]?.streamName = response.name
                if entries[id]?.connectedSince == nil { entries[id]?.connectedSince = StationSession.now }
                if let bitrate = response.bitrate {
                    entries[id]?.announcedKbps = bitrate
                    session.bytesPerSecond = bitrate * 125
                }
            case .disconnected:
                entries[id]?.connectedSince = nil
                entries[id]?.throughput.reset()
            case .failed(let failure):
                entries[id] = nil
                let attempts = retries[id]?.attempts ?? 0
                retries[id] = (attempts + 1, StationSession.now + settings.retry.delay(attempt: attempts, outage: 0))
                logger.debug("warm station failed", metadata: ["stream.url": "\(session.station.url)", "reason": "\(failure)"])
                return true
            }
            return false
        }
        if outcome == true { session.cancel() }
        return outcome != nil
    }

    /// Cancels every warm session and stops the upkeep for good.
    func shutdown() {
        let sessions = lock.withLock { () -> [StationSession] in
            isShutDown = true
            timer?.cancel()
            timer = nil
            defer { entries.removeAll() }
            return entries.values.map(\.session)
        }
        sessions.forEach { $0.cancel() }
    }

    // MARK: Upkeep

    private func upkeep() {
        let player = listening()
        let now = StationSession.now
        var stopping: [StationSession] = []
        var starting: [StationSession] = []
        lock.withLock {
            guard !isShutDown else { return }
            if player.active { idleSince = nil } else if idleSince == nil { idleSince = now }
            let idle = idleSince.map { now - $0 >= settings.idleSeconds } ?? false
            if measureStarved(player, now: now) {
                let attempts = slowLink?.attempts ?? 0
                let delay = settings.slowLinkRetry.delay(attempt: attempts, outage: 0)
                slowLink = (attempts + 1, now + delay)
                logger.info("link too slow for warm stations; dropped", metadata: ["retry.seconds": "\(Int(delay))"])
            }
            let slowed = slowLink.map { now < $0.until } ?? false
            let selected = idle || slowed ? [] : selection(playing: player.session?.station)
            for (id, entry) in entries where !selected.contains(entry.session.station) {
                stopping.append(entry.session)
                entries[id] = nil
            }
            if player.active && player.heard && !slowed {
                for station in selected where entries[station.id] == nil && !player.leaving.contains(station)
                    && (retries[station.id]?.at ?? 0) <= now {
                    let session = makeSession(station)
                    session.keepWarm()
                    entries[station.id] = Entry(session: session)
                    starting.append(session)
                }
            }
            retries = retries.filter { id, _ in wanted.contains { $0.id == id } }
            // Nothing to keep until the player changes.
            if entries.isEmpty && (idle || wanted.isEmpty) {
                timer?.cancel()
                timer = nil
            }
        }
        stopping.forEach { $0.cancel() }
        starting.forEach(startSession)
    }

    /// The wanted stations but `playing`, in order, that fit the budget. Called with `lock` held.
    private func selection(playing: PlayableStation?) -> [PlayableStation] {
        var chosen: [PlayableStation] = []
        var total = 0
        for station in wanted where station.id != playing?.id && !chosen.contains(where: { $0.id == station.id }) {
            let kbps = self.kbps(of: station)
            guard kbps <= budgetKbps - total else { continue }
            chosen.append(station)
            total += kbps
        }
        return chosen
    }

    /// What `station` costs: its announced bitrate, else the rate measured on it, else the assumed one.
    /// Called with `lock` held.
    private func kbps(of station: PlayableStation) -> Int {
        guard let entry = entries[station.id], entry.session.station == station else { return settings.assumedKbps }
        if let announced = entry.announcedKbps { return announced }
        if let since = entry.connectedSince, StationSession.now - since >= Throughput.window + Self.settleSeconds,
           let rate = entry.throughput.bytesPerSecond {
            return min(max(Int(rate / 125), 1), 1_000_000)
        }
        return settings.assumedKbps
    }

    /// Samples every stream's throughput. - Returns: whether, with stations warm, the playing station or
    /// a warm one with a known bitrate is starved. Called with `lock` held.
    private func measureStarved(_ player: Listening, now: Double) -> Bool {
        var starved = false
        if let session = player.session {
            var state = playing.flatMap { $0.session == ObjectIdentifier(session) ? $0 : nil }
                ?? PlayingStream(session: ObjectIdentifier(session))
            if !player.connected {
                state.connectedSince = nil
                state.throughput.reset()
            } else if state.connectedSince == nil {
                state.connectedSince = now
            }
            state.throughput.sample(bytes: session.audioBytesDelivered, at: now)
            playing = state
            if player.active && isStarved(state.throughput, since: state.connectedSince, bytesPerSecond: session.bytesPerSecond,
                                          session: session, now: now) {
                starved = true
            }
        } else {
            playing = nil
        }
        for id in Array(entries.keys) {
            guard var entry = entries[id] else { continue }
            if entry.connectedSince != nil { entry.throughput.sample(bytes: entry.session.audioBytesDelivered, at: now) }
            entries[id] = entry
            if let announced = entry.announcedKbps,
               isStarved(entry.throughput, since: entry.connectedSince, bytesPerSecond: announced * 125, session: entry.session, now: now) {
                starved = true
            }
        }
        return starved && !entries.isEmpty
    }

    private func isStarved(_ throughput: Throughput, since: Double?, bytesPerSecond: Int, session: StationSession, now: Double) -> Bool {
        guard let since, now - since >= Throughput.window + Self.settleSeconds, !session.isHLS,
              let rate = throughput.bytesPerSecond else { return false }
        return rate < Self.slowRatio * Double(bytesPerSecond)
    }
}
