import Audio
import CurlSupport
import Display
import Foundation
import Hardware
import Logging
import PrintableText
import Threads
import WavedialConfig
import WavedialControl
import WavedialCore

/// The appliance's brain: owns the radio's state and turns knob and button events,
/// control requests and player reports into actions.
///
/// Confined to its own serial queue (`wd-controller`): every public method may be called
/// from any thread and runs there in order. Time is monotonic nanoseconds, the same clock
/// as the GPIO events' timestamps, so tests drive it with chosen times.
public final class RadioController: @unchecked Sendable {
    /// Where the controller's work runs.
    public let queue = DispatchQueue(label: "wd-controller")

    let database: WavedialDatabase
    /// Where every write goes: the queue only hands changes over, never waits for the disk.
    let store: RadioStateStore
    private(set) var configuration: Configuration
    let player: RadioPlayer
    private let display: (DisplayViewState) -> Void
    private let reportPlay: (Station) -> Void
    /// Whether the radio serves `station` itself (the offline demo band on loopback).
    private let isServedHere: (Station) -> Bool
    let monotonic: () -> UInt64
    let logger: Logger

    private var mode = DialBandKind.nearby
    private var nearby = DialBand(band: .fm, assignments: [:])
    private var favoritesBand = DialBand(band: .fm, assignments: [:])
    /// Stations on either band, by stationuuid (favorites as their snapshots).
    private var known: [String: Station] = [:]
    private var favoriteIDs: Set<String> = []
    /// The favorites in the order of `wavedial fav list`: what a remote's digit keys tune.
    private var favoriteOrder: [String] = []
    /// The snapshots of favorites the user typed (imported, not from the catalog), by stationuuid:
    /// only these stations play under the user-typed address policy.
    private var typedFavorites: [String: Station] = [:]
    /// The stations the user typed by URL (`tune URL`, ``TypedStation``) or tuned as typed favorites, by
    /// stationuuid: the current one and those in the history, which back and forward find here.
    private var typedStations: [String: Station] = [:]
    /// The knob's side: the needle, the station tuned ahead, the sweep (a pure reducer, ``Tuning``).
    private var tuning: Tuning
    private var needle: Needle { tuning.needle }
    private var history = StationHistory()
    /// The station the knob last rested on (or tuned otherwise): the one that counts as played.
    private(set) var current: Station?
    private(set) var playerStatus = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)
    private var pausedAt: UInt64?
    var saved: ApplianceState
    /// What the database holds of `saved`: written only when they differ.
    private var stored: ApplianceState
    private var songs = SongHistoryBuffer()
    private var volumeShownUntil: UInt64 = 0
    /// Where the player's audio goes (the device, or nowhere and why).
    private var audioOutput: AudioOutputRoute
    /// A message on the LCD's bottom row ("No sound card", the setup file's problem) and until when it shows.
    private var banner: (text: String, until: UInt64)?
    /// Messages for the idle screen from subsystems ("Syncing catalog", "No network"), by subsystem.
    private var notices: [String: String] = [:]
    private var notice: String? { notices.sorted { $0.key < $1.key }.first?.value }
    /// A device that is down ("LCD offline", "Knob offline", "Remote offline"): a fault, so `status` reports it as
    /// its error when the player has none (other notices, like sync progress, are not errors).
    private var deviceProblem: String? { ["display", "input", "ir"].lazy.compactMap { self.notices[$0] }.first }
    private var observers: [UUID: (RadioStatus) -> Void] = [:]
    private var lastPublished: RadioStatus?
    private var lastTickRefresh: UInt64 = 0
    private static let restingRefreshInterval: UInt64 = 250_000_000
    private(set) var fastTicks = false
    /// Its own tick, as a service (``start()``): on the queue.
    var ticker: DispatchSourceTimer?

    /// Heard on the queue when the controller needs ``tick()`` often (true: the needle turns, and its
    /// rest is timed to the tick) or only for the resting refresh, 4 times a second (false). Its own
    /// ticker follows the same pace, so a radio nobody touches is not woken 50 times a second. Set before `start`.
    public var onTickPace: ((_ fast: Bool) -> Void)?
    private var observations: [Player.Observation] = []
    /// The sleep timer and the alarms (``RadioController+Clock``).
    var clock = RadioClock()

    /// How long the volume overlay stays after a change.
    static let volumeOverlayNanoseconds: UInt64 = 2_000_000_000
    /// How long "No sound card" stays on the LCD's bottom row.
    static let bannerNanoseconds: UInt64 = 4_000_000_000

    public init(
        configuration: Configuration, database: WavedialDatabase, player: RadioPlayer,
        display: @escaping (DisplayViewState) -> Void, reportPlay: @escaping (Station) -> Void = { _ in },
        isServedHere: @escaping (Station) -> Bool = { _ in false },
        monotonic: @escaping () -> UInt64 = MonotonicClock.now, logger: Logger
    ) {
        self.configuration = configuration
        self.database = database
        let onDisk = (try? database.applianceState()) ?? ApplianceState()
        store = RadioStateStore(database: database, stored: onDisk, logger: logger)
        self.player = player
        self.display = display
        self.reportPlay = reportPlay
        self.isServedHere = isServedHere
        self.monotonic = monotonic
        self.logger = logger
        tuning = Tuning(needle: Needle(kHz: configuration.dial.band.startKHz))
        saved = onDisk
        stored = onDisk
        audioOutput = player.status.output
    }

    // MARK: Life cycle

    /// Builds the bands, restores volume and band, and resumes the last station when
    /// `resume` is set. Call once, before events arrive.
    public func start(resume: Bool) {
        queue.sync {
            mode = DialBandKind(rawValue: saved.band) ?? .nearby
            startClock()
            player.volume = playerLevel(at: monotonic())
            clock.lastLevel = player.volume
            observations.append(player.observe { [weak self] status in
                guard let controller = self else { return }
                controller.queue.async { controller.playerChanged(status) }
            })
            observations.append(player.observeTitles { [weak self] title in
                guard let controller = self else { return }
                controller.queue.async { controller.heard(title) }
            })
            rebuildBands()
            if resume, let uuid = saved.lastStation, let station = lookup(uuid) ?? lastTypedStation(uuid) {
                tune(station, fromHistory: false)
            } else if let uuid = saved.lastStation, let kHz = activeBand.frequency(of: uuid) {
                tuning.place(at: kHz)
            }
            refresh()
        }
    }

    /// Stops playback (the player fades out) and saves the state and the song history still pending,
    /// waiting up to 5 s for the writes.
    public func shutdown() {
        queue.sync {
            observations.forEach { $0.cancel() }
            observations.removeAll()
            carryOut(tuning.endSweep())
            player.stop()
            persist()
            writeSongs(songs.takeAll(at: monotonic()))
        }
        if !store.flush(timeout: 5) { logger.warning("the last state was not written within 5 s") }
    }

    /// Rebuilds the bands after a catalog sync or a location change; stations that stay
    /// keep their frequencies. Also replaces the configuration (SIGHUP).
    public func reload(_ configuration: Configuration? = nil) {
        queue.async { [self] in
            if let configuration { self.configuration = configuration }
            rebuildBandsNow()
        }
    }

    /// Rebuilds the bands and warms the new neighbours (on the controller's queue).
    func rebuildBandsNow() {
        rebuildBands()
        warmNeighbours()
        refresh()
    }

    /// Sets or clears a subsystem's message, shown while nothing plays.
    public func setNotice(_ text: String?, from subsystem: String) {
        queue.async { [self] in
            notices[subsystem] = text
            refresh()
        }
    }

    /// Shows `text` on the LCD's bottom row for `nanoseconds` (at start, what is wrong with the setup file).
    /// Any thread.
    public func showBanner(_ text: String, forNanoseconds nanoseconds: UInt64) {
        queue.async { [self] in
            banner = (text, monotonic() &+ nanoseconds)
            refresh()
        }
    }

    // MARK: Input

    /// A knob or button event (from the GPIO thread or the simulator).
    public func handle(_ event: InputEvent) {
        queue.async { [self] in
            handleNow(event.kind, at: event.timestamp)
            refresh()
        }
    }

    /// A tick at a given time, synchronously (tests; the controller's own ticker runs ``tickNow(_:)``).
    public func tick(at time: UInt64) {
        queue.sync { tickNow(time) }
    }

    /// Lets time pass, on the queue: snaps the needle once the knob has rested. The ticker calls it every 20 ms
    /// while the needle turns and 4 times a second otherwise (``onTickPace``).
    func tickNow(_ time: UInt64) {
        writeSongs(songs.takeDue(at: time))
        tickClock(at: time)
        // Events refresh at once; between them only the needle's rest, the clock, the time-shift
        // counter and the volume overlay's timeout move, so a resting radio refreshes 4 times a second.
        // (A fifth of slack: the daemon's resting ticks come every 250 ms, give or take the timer's leeway.)
        guard needle.isTurning || time &- lastTickRefresh >= Self.restingRefreshInterval / 5 * 4 else { return }
        lastTickRefresh = time
        carryOut(tuning.tick(at: time, tuningContext))
        refresh()
    }

    /// An intent from a control that is not a GPIO line (a remote's key), carried out on the queue.
    public func request(_ intent: RadioIntent) {
        queue.async { [self] in
            carryOut(intent)
            refresh()
        }
    }

    /// Carries out `intent`, on the queue (``IntentDecision`` decides). - Returns: false when there was nothing
    /// to do it to (no history to go back to, no station tuned to favorite, no such favorite, an empty band).
    @discardableResult
    func carryOut(_ intent: RadioIntent) -> Bool {
        // The listener is awake: a ringing alarm's tone stops (a long press on pause only sets the sleep timer).
        if intent != .cycleSleepTimer { endAlarm() }
        var situation = IntentDecision.Situation(
            playback: isActive ? .active : (isPaused ? .paused : .stopped), current: current?.stationuuid, needle: needle,
            dial: activeBand, history: history, favoriteOrder: favoriteOrder, volume: saved.volume)
        guard let actions = IntentDecision.decide(intent, in: &situation) else { return false }
        history = situation.history
        var done = true
        for action in actions {
            switch action {
            case .resume:
                player.resume()
                pausedAt = nil
            case .pause:
                pause()
            case .tune(let uuid), .tuneFromHistory(let uuid):
                guard let station = lookup(uuid) else {
                    done = false
                    continue
                }
                if case .tuneFromHistory = action { tune(station, fromHistory: true) } else { tune(station, fromHistory: false) }
            case .placeNeedle(let kHz): tuning.place(at: kHz)
            case .toggleFavorite: toggleFavorite()
            case .switchBand: switchBand()
            case .toggleMute: toggleMute()
            case .setVolume(let volume): setVolume(volume)
            case .cycleSleepTimer: cycleSleepTimer()
            }
        }
        return done
    }

    // MARK: Helpers for control requests (on the queue)

    func currentTime() -> UInt64 { monotonic() }
    var dialBand: DialBand { activeBand }
    func currentStatus() -> RadioStatus { makeStatus() }
    func refreshNow() { refresh() }
    func changeVolume(_ value: Int) { setVolume(value) }
    /// What one detent of the volume knob moves (`sim_turn` of the volume knob; 2 on a radio without one).
    var volumeKnobStepPercent: Int { (configuration.hardware.volumeKnob ?? InputSettings.VolumeKnob()).stepPercent }

    /// An input event at `time`, on the queue.
    func handleNow(_ kind: InputEvent.Kind, at time: UInt64) {
        switch kind {
        case .detent(let delta):
            carryOut(tuning.turn(delta, at: time, tuningContext))
        case .volumeChange(let percent):
            carryOut(.changeVolume(byPercent: percent))
        case .button(let name, let action):
            if let intent = RadioIntent.forButton(name, action) { carryOut(intent) }
        }
    }

    func tuneStation(_ station: Station) { tune(station, fromHistory: false) }

    func tuneStation(uuid: String) -> Bool {
        guard let station = lookup(uuid) else { return false }
        tune(station, fromHistory: false)
        return true
    }

    /// Plays a station the user typed by its URL (``TypedStation/station(url:)``) under the user-typed
    /// policy; a favorite the user typed with that URL is that favorite.
    func tuneTyped(_ station: Station) {
        let favorite = typedFavorites.values.filter { $0.url == station.url }.min { $0.stationuuid < $1.stationuuid }
        let typed = favorite ?? station
        typedStations[typed.stationuuid] = typed
        tune(typed, fromHistory: false)
    }

    // MARK: Actions (on the queue)

    /// Pauses what plays (the time-shift records from now). On the queue.
    func pause() {
        guard isActive else { return }
        player.pause()
        pausedAt = monotonic()
    }

    private var isPaused: Bool {
        if case .paused = playerStatus.state { return true }
        return false
    }

    private var isActive: Bool {
        switch playerStatus.state {
        case .connecting, .buffering, .playing: return true
        case .failed(_, let willRetry): return willRetry
        case .idle, .paused: return false
        }
    }

    /// Marks the tuned station a favorite or unmarks it: the heart changes at once, the favorites band once
    /// the store has written it.
    private func toggleFavorite() {
        guard let current else { return }
        let add = !favoriteIDs.contains(current.stationuuid)
        if add { favoriteIDs.insert(current.stationuuid) } else { favoriteIDs.remove(current.stationuuid) }
        store.change(RadioStateStore.FavoriteChange(station: current, typed: isTyped(current), add: add) { [weak self] result in
            guard let controller = self else { return }
            controller.queue.async {
                if case .failure = result { controller.notices["favorites"] = "Favorite not saved" }
                controller.rebuildFavorites()
                controller.warmNeighbours()
                controller.refresh()
            }
        })
    }

    private func switchBand() {
        mode = mode == .nearby ? .favorites : .nearby
        if let current, let kHz = activeBand.frequency(of: current.stationuuid) {
            tuning.place(at: kHz)
        } else if let first = activeBand.closest(to: needle.kHz) {
            tuning.place(at: first.kHz)
        }
        // A station tuned ahead on the band left is not what plays: the station that played does again.
        if let current, tuning.isAhead(of: current.stationuuid), isActive {
            player.play(playable(current))
            tuning.tuned(current.stationuuid)
        }
        carryOut(tuning.endSweep())
        persist()
        warmNeighbours()
    }

    // MARK: The knob (on the queue)

    /// What the knob's reducer needs to know of the radio.
    private var tuningContext: Tuning.Context {
        Tuning.Context(dial: activeBand, current: current?.stationuuid, isActive: isActive, isPaused: isPaused,
                              settings: configuration.dial)
    }

    /// Carries out what the knob's reducer decided, in its order.
    private func carryOut(_ effects: [Tuning.Effect]) {
        for effect in effects {
            switch effect {
            case .prepare(let uuid):
                if let station = lookup(uuid) { player.prepare(playable(station)) }
            case .sweep(let level):
                player.setSweep(level: level, noise: configuration.dial.sweepNoise)
            case .tune(let uuid):
                if let station = lookup(uuid) { tune(station, fromHistory: false) }
            case .playAgain(let uuid):
                // Not a new play: nothing is recorded or reported.
                if let current, current.stationuuid == uuid { player.play(playable(current)) }
            }
        }
    }

    private func toggleMute() {
        saved.muted.toggle()
        applyVolume()
    }

    private func setVolume(_ value: Int) {
        saved.volume = min(max(value, 0), 100)
        saved.muted = false
        volumeChangedByListener()
        applyVolume()
    }

    private func applyVolume() {
        player.volume = playerLevel(at: monotonic())
        clock.lastLevel = player.volume
        volumeShownUntil = monotonic() &+ Self.volumeOverlayNanoseconds
        persist()
    }

    /// A control command's change could not be written: the volume, mute and band go back to `onDisk`, what
    /// the database holds, and so does what is to be saved (the station playing stays; the one the database
    /// names to resume is `onDisk`'s). On the queue.
    func restoreSavedState(_ onDisk: ApplianceState) {
        let level = (saved.volume, saved.muted)
        saved = onDisk
        stored = onDisk
        if let kind = DialBandKind(rawValue: onDisk.band), kind != mode { switchBand() }
        if level != (onDisk.volume, onDisk.muted) {
            player.volume = playerLevel(at: monotonic())
            clock.lastLevel = player.volume
        }
        refreshNow()
    }

    /// Plays `station`, moving the needle to it when it is on the band shown. Until the player reports
    /// on it, the station is connecting, with no title and no failure: those of the station before are not its.
    private func tune(_ station: Station, fromHistory: Bool) {
        if !fromHistory { history.visit(station.stationuuid) }
        let typed = isTyped(station)
        if typed { typedStations[station.stationuuid] = station }
        typedStations = typedStations.filter { $0.key == station.stationuuid || history.entries.contains($0.key) }
        current = station
        pausedAt = nil
        if let kHz = activeBand.frequency(of: station.stationuuid) { tuning.place(at: kHz) }
        let playable = playable(station)
        player.play(playable)
        tuning.tuned(station.stationuuid)
        // After the play: a station tuned ahead is adopted at the sweep's level, then ramps to full.
        carryOut(tuning.endSweep())
        // A station tuned ahead plays on from where it is (the player adopts it); any other is connecting.
        let reported = player.status
        playerStatus = reported.station == playable ? reported : PlayerStatus(state: .connecting, station: playable, title: nil, streamName: nil)
        warmNeighbours()
        saved.lastStation = station.stationuuid
        saved.lastTypedURL = typed ? station.url : nil
        persist()
        store.recordPlay(of: station, at: Date())
        // Radio Browser counts plays of its stations; a typed station's id is made up here.
        if !typed { reportPlay(station) }
    }

    /// The player's view of `station`, under its address policy: its own `url`, resolved afresh
    /// (``Station/checkedStreamURL``).
    private func playable(_ station: Station) -> PlayableStation {
        PlayableStation(id: station.stationuuid, name: station.name, url: station.url, addressPolicy: addressPolicy(for: station))
    }

    /// Keeps the current station's neighbours on the band shown warm (`[dial] warm_neighbours` each side,
    /// within `warm_kbps`; ``WarmSet``), so turning to one plays at once. Warm stations are not plays: they
    /// are neither recorded nor reported.
    private func warmNeighbours() {
        let dial = configuration.dial
        var chosen: [String] = []
        if let current {
            let candidates = WarmSet.neighbours(of: current.stationuuid, on: activeBand, count: dial.warmNeighbours)
                .compactMap(lookup).map { WarmSet.Candidate(stationuuid: $0.stationuuid, kbps: $0.bitrate) }
            chosen = WarmSet.choose(candidates, playing: current.stationuuid, budgetKbps: dial.warmKbps)
        }
        player.warm(chosen.compactMap(lookup).map(playable), budgetKbps: dial.warmKbps)
    }

    /// Whether the user gave `station` by its URL: typed with `tune URL`, or the snapshot of a favorite the
    /// user typed (the very record, not a catalog station with its uuid).
    private func isTyped(_ station: Station) -> Bool {
        typedStations[station.stationuuid] == station || typedFavorites[station.stationuuid] == station
    }

    /// The station typed by URL that was tuned last before power-up (``ApplianceState/lastTypedURL``), when
    /// it is `uuid`.
    private func lastTypedStation(_ uuid: String) -> Station? {
        guard let url = saved.lastTypedURL, let station = try? TypedStation.station(url: url), station.stationuuid == uuid
        else { return nil }
        typedStations[uuid] = station
        return station
    }

    /// A catalog station may reach public addresses only; a station the user typed may reach the home
    /// network too. A station the radio serves itself (the offline demo band, ``DemoBand/isLocalDemo(_:)``)
    /// may reach 127.0.0.1, where its server listens, and nothing else a catalog station may not.
    private func addressPolicy(for station: Station) -> AddressPolicy {
        if isServedHere(station) {
            return AddressPolicy.catalog.allowing([IPNetwork(IPAddress(v4: 0x7F00_0001), prefixLength: 32)])
        }
        return isTyped(station) ? .userTyped : .catalog
    }

    /// Hands the appliance state to the store when it changed (nothing is read back: the SD card and
    /// the database are left alone while nothing changes).
    func persist() {
        saved.band = mode.rawValue
        guard saved != stored else { return }
        store.save(saved)
        stored = saved
    }

    // MARK: Player reports

    private func playerChanged(_ status: PlayerStatus) {
        if status.output != audioOutput {
            // Said once on the LCD as the audio starts going nowhere; `status` says it for as long as it does.
            if case .noDevice = status.output, !audioOutput.isNoDevice { banner = ("No sound card", monotonic() &+ Self.bannerNanoseconds) }
            audioOutput = status.output
        }
        // Reports about a station switched away from are stale.
        guard status.station == nil || status.station?.id == current?.stationuuid else { return }
        playerStatus = status
        refresh()
    }

    /// A title reached the speaker: it goes to the song history through ``SongHistoryBuffer`` (one
    /// entry a station in 10 s, written at most once a minute).
    private func heard(_ title: TrackTitle) {
        guard let station = current, title.station.id == station.stationuuid else { return }
        let now = monotonic()
        songs.hear(SongHistoryEntry(stationuuid: station.stationuuid, stationName: station.name, title: title.title,
                                    heardAt: Date(timeIntervalSince1970: title.unixTime)), at: now)
        writeSongs(songs.takeDue(at: now))
    }

    private func writeSongs(_ entries: [SongHistoryEntry]) {
        guard !entries.isEmpty else { return }
        store.recordSongs(entries)
    }

    // MARK: Bands

    private var activeBand: DialBand { mode == .nearby ? nearby : favoritesBand }

    private func rebuildBands() {
        do {
            let location = try database.storedLocation() ?? configuration.location.coordinate
            if let location {
                notices["location"] = nil
                let (plan, stations) = try database.planNearbyBand(
                    location: location, countryCode: configuration.location.countryCode, settings: configuration.dial)
                store.store(plan)
                nearby = plan.band
                for entry in stations { known[entry.station.stationuuid] = entry.station }
            } else {
                nearby = DialBand(band: configuration.dial.band, assignments: [:])
                notices["location"] = "Set location"
            }
        } catch {
            logger.error("nearby band not built", metadata: ["error": "\(error)"])
        }
        rebuildFavorites()
        if !configuration.dial.band.contains(needle.kHz) { tuning.place(at: configuration.dial.band.startKHz) }
    }

    private func rebuildFavorites() {
        do {
            let (plan, favorites) = try database.planFavoritesBand(configuration.dial.band)
            store.store(plan)
            favoritesBand = plan.band
            favoriteIDs = Set(favorites.map(\.stationuuid))
            favoriteOrder = favorites.map(\.stationuuid)
            for favorite in favorites where known[favorite.stationuuid] == nil { known[favorite.stationuuid] = favorite.snapshot }
            let typed = try database.typedFavoriteIDs()
            typedFavorites = Dictionary(favorites.filter { typed.contains($0.stationuuid) }.map { ($0.stationuuid, $0.snapshot) },
                                        uniquingKeysWith: { first, _ in first })
        } catch {
            logger.error("favorites band not built", metadata: ["error": "\(error)"])
        }
    }

    func lookup(_ uuid: String) -> Station? {
        if let station = typedStations[uuid] ?? known[uuid] { return station }
        guard let station = try? database.station(uuid: uuid) else { return nil }
        known[uuid] = station
        return station
    }

    // MARK: Observing

    /// The radio's state now.
    public var status: RadioStatus { queue.sync { makeStatus() } }

    /// Subscribes to the status (the control socket's ``ControlServer/Subscriber``): `send` gets the
    /// current status, then each change, on the controller's queue, until it returns false. It must not
    /// block: the control server only leaves the status in the subscriber's outbox.
    /// - Returns: a function that ends the subscription.
    public func subscribe(_ send: @escaping @Sendable (RadioStatus) -> Bool) -> () -> Void {
        let id = UUID()
        queue.async { [self] in
            guard send(makeStatus()) else { return }
            observers[id] = { [weak self] status in
                if !send(status) { self?.observers[id] = nil }
            }
        }
        return { [weak self] in
            guard let controller = self else { return }
            controller.queue.async { controller.observers[id] = nil }
        }
    }

    private func refresh() {
        let now = monotonic()
        if needle.isTurning != fastTicks {
            fastTicks = needle.isTurning
            onTickPace?(fastTicks)
            paceTicker()
        }
        let picture = picture(at: now)
        display(RadioPresenter.viewState(of: picture, at: now, clock: Date()))
        let status = RadioPresenter.status(of: picture)
        if status != lastPublished {
            lastPublished = status
            for observer in observers.values { observer(status) }
        }
    }

    func makeDialListing() -> DialListing {
        let band = configuration.dial.band
        func entry(_ uuid: String) -> DialListing.Entry? {
            guard let station = lookup(uuid) else { return nil }
            return DialListing.Entry(stationuuid: uuid, name: station.name,
                                     frequencyMHz: activeBand.frequency(of: uuid).map(band.megahertz),
                                     favoriteNumber: favoriteOrder.firstIndex(of: uuid).map { $0 + 1 })
        }
        return DialListing(band: mode, startMHz: band.megahertz(band.startKHz), endMHz: band.megahertz(band.endKHz),
                           needleMHz: band.megahertz(needle.kHz),
                           dial: activeBand.entries.compactMap { entry($0.stationuuid) },
                           favorites: favoriteOrder.compactMap(entry))
    }

    /// The radio's state as the presenter takes it, at `time` (monotonic ns).
    func picture(at time: UInt64) -> RadioPresenter.Picture {
        let under = needle.isTurning ? activeBand.closest(to: needle.kHz, direction: needle.direction) : nil
        // Looked up once: the status and the idle clock both show it, at every refresh.
        let next = nextAlarm
        return RadioPresenter.Picture(
            band: configuration.dial.band, dial: activeBand, mode: mode, needle: needle,
            nameUnderNeedle: under.flatMap { lookup($0.stationuuid)?.name }, current: current, player: playerStatus,
            pausedAt: pausedAt, volume: saved.volume, muted: saved.muted, volumeShownUntil: volumeShownUntil,
            audioOutput: audioOutput, banner: banner.flatMap { time < $0.until ? $0.text : nil },
            favoriteIDs: favoriteIDs, notice: notice, deviceProblem: deviceProblem,
            sleeping: clock.sleep.isOn, sleepRemainingSeconds: clock.sleep.remainingSeconds(at: time),
            nextAlarm: next.map { LocalClock.iso8601($0.ring, offset: clock.utcOffset) }, nextAlarmText: next.map(idleClockText),
            alarmToneSounding: isToneSounding)
    }

    private func makeStatus() -> RadioStatus { RadioPresenter.status(of: picture(at: monotonic())) }

    /// What the display shows at `time`.
    func viewState(at time: UInt64) -> DisplayViewState {
        RadioPresenter.viewState(of: picture(at: time), at: time, clock: Date())
    }
}
