import Dispatch
import Glibc
import Logging
import Threads

/// Plays internet radio: one station at a time, from its URL to the ALSA device.
///
/// The network side of the current station runs on its own thread (``StationSession``); decoding
/// and output run on the player's audio thread (`wd-audio`): ring → libmpg123 → volume/fades → ALSA.
/// The public methods may be called from any thread and return at once. Observers are called on the
/// player's serial event queue, in order.
public final class Player: @unchecked Sendable {
    /// A registration returned by ``observe(_:)`` and ``observeTitles(_:)``; ``cancel()`` ends it.
    public final class Observation: @unchecked Sendable {
        private let onCancel: () -> Void
        /// An observation ended by `onCancel` (also for players that stand in for this one).
        public init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }
        public func cancel() { onCancel() }
    }

    public let settings: PlayerSettings
    /// The time the player's life and its audio thread go by.
    let clock: PlayerClock
    /// The device the audio thread plays to (only that thread touches it).
    let output: AudioOutput
    /// The sound card's volume control, when the hardware turns the volume; used under `control`.
    private let mixer: AlsaMixer?
    /// Whether the mixer's last setting failed: logged once, not at every step of the knob.
    private var mixerFailed = false
    private let logger: Logger
    private let control = ConditionLock()
    private let events = DispatchQueue(label: "wd-player-events")
    /// The audio thread, once started (``startAudioThreadIfNeeded()``).
    private let audioThread = DispatchGroup()
    /// Every station session's network thread, also those of sessions replaced and still winding down.
    private let networkThreads = DispatchGroup()
    /// Stations' loudness: the guess at tune and the measurements' observers (``observeLoudness(_:)``).
    let loudnessMemory = LoudnessMemory()

    // Guarded by `control`.
    /// The player's life: every change goes through ``apply(_:)``; the published status is derived from it.
    private var life: PlayerLifecycle
    /// The tuned station's session (nil when idle; kept after it failed, for its station).
    private var session: StationSession?
    private var level: Double
    private var streamName: String?
    private var sweep: SweepMix.Setting?
    /// The alarm's own tone sounds while no station is tuned (``soundAlarmTone(_:)``).
    private var tone = false
    private var published = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)
    /// Where the audio goes (set in `init`; changed by a ``SilenceFallbackOutput``, on the audio thread).
    private var outputRoute: AudioOutputRoute
    private var statusObservers: [Int: @Sendable (PlayerStatus) -> Void] = [:]
    private var titleObservers: [Int: @Sendable (TrackTitle) -> Void] = [:]
    private var nextObserverID = 0
    /// The one-way channel to the audio thread; nil until the thread starts.
    private var commands: AudioCommandChannel?
    /// Sessions switched away from whose stations are wanted warm: the audio thread still fades them out,
    /// so they are handed to ``warmStations`` when it has left them (``audioSwitched(to:)``).
    private var leaving: [(session: StationSession, streamName: String?, connected: Bool)] = []
    /// Set once in `init`.
    private var warmStations: WarmStations!

    /// - Parameters:
    ///   - settings: see ``PlayerSettings`` for the defaults.
    ///   - logger: the `wavedial.audio` logger; the player logs at `info` and below.
    ///   - output: where the audio goes; by default the ALSA device of `settings.output`.
    ///   - mixer: the card's volume control (`[audio] mixer = "hardware"`): the volume sets it along
    ///     ``MixerVolumeCurve`` and the samples stay at unity gain (silent only at 0). Nil: the samples' volume.
    ///   - clock: times the start timeout, silences and the retries (tests pass one they move on by hand).
    public init(settings: PlayerSettings = PlayerSettings(), logger: Logger = Logger(label: "wavedial.audio"),
                output: AudioOutput? = nil, mixer: AlsaMixer? = nil, clock: PlayerClock = MonotonicClock()) {
        self.settings = settings
        self.clock = clock
        var fallback: SilenceFallbackOutput?
        outputRoute = .device(settings.output.device)
        if let output {
            self.output = output
        } else if settings.output.device == "null" {
            // ALSA's own null PCM never blocks: the lead would drain at once and nothing would ever play.
            self.output = NullAudioOutput()
            outputRoute = .configuredSilence
        } else if settings.missingDevice == .playSilently {
            let silent = SilenceFallbackOutput(device: AlsaOutput(settings: settings.output), deviceName: settings.output.device)
            fallback = silent
            self.output = silent
        } else {
            self.output = AlsaOutput(settings: settings.output)
        }
        self.mixer = mixer
        self.logger = logger
        level = settings.volume
        life = PlayerLifecycle(startTimeout: settings.startTimeout)
        warmStations = WarmStations(
            settings: settings.warm, logger: logger, makeSession: { [weak self] station in
                StationSession(station: station, settings: settings, logger: logger, clock: clock) { session, event in
                    self?.handle(event, from: session)
                }
            }, startSession: { [networkThreads] in $0.start(in: networkThreads) },
            listening: { [weak self] in self?.listening() ?? WarmStations.Listening(active: false, heard: false, connected: false) })
        control.withLock {
            published.output = outputRoute
            setMixer()
        }
        fallback?.onRouteChange = { [weak self] route in self?.outputRouteChanged(route) }
    }

    deinit {
        shutdown()
    }

    // MARK: Commands

    /// Tunes `station`: the current transfer is cancelled and released (or kept warm, when its station is
    /// wanted warm), the new one starts at once; a warm station plays from its buffer, with no new connection.
    /// A station ``prepare(_:)`` tuned (and not failed) is adopted instead: play starts from its connection.
    /// Does nothing after ``shutdown()``.
    public func play(_ station: PlayableStation) {
        let adopted = control.withLock { () -> Bool in
            guard life.speculative, life.isTuned, session?.station == station else { return false }
            // Play means play: a pause while it was only tuned ahead ends here, as a new play's would.
            apply(.adopt)
            return true
        }
        if adopted {
            logger.info("playing the station tuned ahead", metadata: ["station.uuid": "\(station.id)"])
            publishStatus()
            return
        }
        start(station, speculative: false)
    }

    /// Tunes `station` ahead, while the knob still turns: connected and decoded as by ``play(_:)``, but heard
    /// only under a sweep (``setSweep(level:noise:)``), silent without one, so the station that played goes
    /// quiet. ``play(_:)`` of the same station then plays from this connection. A station already tuned stays.
    public func prepare(_ station: PlayableStation) {
        guard !control.withLock({ session?.station == station && life.isTuned }) else { return }
        start(station, speculative: true)
    }

    /// The programme's level while the needle sweeps, 0...1 (nil: not sweeping: the programme at full and no
    /// hiss), and whether a quiet inter-station hiss fills the rest (also while nothing is tuned: the device
    /// then plays the hiss alone). Changes ramp smoothly. Any thread.
    public func setSweep(level: Double?, noise: Bool = true) {
        control.withLock {
            guard life.state != .shutDown else { return }
            sweep = level.map { SweepMix.Setting(level: $0, noise: noise) }
            if sweep != nil { startAudioThreadIfNeeded() }
            commands?.send(.setSweep(sweepStage))
        }
    }

    /// Sounds the alarm's tone (beeps made here, no network needed) at the volume, or ends it (faded out).
    /// Heard only while no station is tuned: stop the player first. Any thread.
    public func soundAlarmTone(_ on: Bool) {
        control.withLock {
            guard life.state != .shutDown, tone != on else { return }
            tone = on
            if on { startAudioThreadIfNeeded() }
            commands?.send(.setTone(on))
        }
    }

    private func start(_ station: PlayableStation, speculative: Bool) {
        guard control.withLock({ life.state != .shutDown }) else { return }
        let adopted = warmStations.take(station)
        adopted?.session.play()
        let newSession = adopted?.session ?? StationSession(station: station, settings: settings, logger: logger, clock: clock) { [weak self] session, event in
            self?.handle(event, from: session)
        }
        let keepWarm = control.withLock { session }.map { warmStations.wants($0.station) } ?? false
        let old = control.withLock { () -> StationSession? in
            let old = session
            if let old, keepWarm { leaving.append((old, streamName, life.link == .connected)) }
            session = newSession
            apply(.tune(connected: adopted?.connected == true, speculative: speculative))
            streamName = adopted?.streamName
            published.title = nil
            startAudioThreadIfNeeded()
            commands?.send(.play(newSession, tunedAt: life.tunedAt))
            commands?.send(.setSweep(sweepStage))
            return keepWarm ? nil : old
        }
        old?.cancel()
        logger.info(speculative ? "tuning ahead" : "tuning",
                    metadata: ["station.uuid": "\(station.id)", "stream.url": "\(station.url)", "warm": "\(adopted != nil)"])
        if adopted == nil { newSession.start(in: networkThreads) }
        warmStations.playerChanged()
        publishStatus()
    }

    /// Keeps `stations` (but the one playing) warm: connected, buffering the latest seconds of their
    /// compressed audio (``WarmSettings``), so ``play(_:)`` of one plays from its buffer at once, at its live
    /// edge. Replaces the set given before: stations no longer in it are disconnected, those still in it
    /// keep their connections. Stations whose bitrates (announced, else measured, else
    /// ``WarmSettings/assumedKbps``) would take the warm ones past `budgetKbps` kbit/s are not warmed.
    /// Connections are made once the playing station is heard, never at its start; they are dropped after
    /// ``WarmSettings/idleSeconds`` paused, stopped or idle, and while the link is too slow for them.
    public func warm(_ stations: [PlayableStation], budgetKbps: Int) {
        warmStations.want(stations, budgetKbps: budgetKbps)
    }

    /// What the warm stations' upkeep needs to know.
    private func listening() -> WarmStations.Listening {
        control.withLock {
            WarmStations.Listening(session: session, active: session != nil && life.isTuned && !life.isPaused,
                                   heard: life.everHeard, connected: life.link == .connected,
                                   leaving: leaving.map(\.session.station))
        }
    }

    /// The audio thread reads only `current` from now on: the sessions it faded out are handed to the warm stations.
    private func audioSwitched(to current: StationSession?) {
        let left = control.withLock { () -> [(session: StationSession, streamName: String?, connected: Bool)] in
            let left = leaving.filter { $0.session !== current }
            leaving.removeAll { $0.session !== current }
            return left
        }
        for old in left { warmStations.offer(old.session, streamName: old.streamName, connected: old.connected) }
    }

    /// Pauses with a fade-out; the stream keeps recording so ``resume()`` continues where it paused
    /// (up to ``PlayerSettings/timeShiftSeconds``, then live).
    public func pause() {
        control.withLock {
            guard session != nil else { return }
            apply(.pause)
        }
        warmStations.playerChanged()
        publishStatus()
    }

    /// Resumes after ``pause()``, from where it paused or live when the time-shift bound was passed.
    public func resume() {
        control.withLock {
            // While the device is gone the stream keeps recording as if paused.
            _ = apply(.resume)
        }
        warmStations.playerChanged()
        publishStatus()
    }

    /// The network may have come (back) (``NetworkChangeMonitor``): the tuned station, when it waits to
    /// reconnect, tries again at once. Any thread.
    public func networkChanged() {
        control.withLock { session }?.retrySoon()
    }

    /// Stops playback with a fade-out and releases the stream; the device is closed.
    public func stop() {
        let old = control.withLock { () -> [StationSession] in
            let old = [session].compactMap { $0 } + leaving.map(\.session)
            leaving.removeAll()
            session = nil
            apply(.stop)
            commands?.send(.play(nil, tunedAt: life.tunedAt))
            published.title = nil
            return old
        }
        old.forEach { $0.cancel() }
        warmStations.playerChanged()
        publishStatus()
    }

    /// The volume, 0...1: squared to the samples' gain, whose changes ramp smoothly, or the hardware
    /// mixer's setting (``AlsaMixer/setVolume(_:)``).
    public var volume: Double {
        get { control.withLock { level } }
        set {
            control.withLock {
                level = newValue.isFinite ? min(max(newValue, 0), 1) : 0
                setMixer()
                commands?.send(.setGain(softwareGain))
            }
        }
    }

    /// The samples' gain for the volume: unity under a hardware mixer (silence at 0, whatever the
    /// control's minimum). Called with `control` held.
    private var softwareGain: Float {
        mixer == nil ? Volume.gain(forLevel: level) : (level > 0 ? 1 : 0)
    }

    /// The gain the samples get for the volume now.
    var sampleGain: Float { control.withLock { softwareGain } }

    /// Called with `control` held (or from `init`).
    private func setMixer() {
        guard let mixer else { return }
        do {
            try mixer.setVolume(level)
            mixerFailed = false
        } catch {
            if !mixerFailed {
                logger.info("the mixer refused the volume", metadata: ["alsa.mixer": "\(mixer.control)", "error": "\(error)"])
            }
            mixerFailed = true
        }
    }

    /// Stops playback, fades out, closes the device and ends the audio thread and the network threads;
    /// waits for them (up to 2 s each). Any thread. - Returns: whether every thread ended in time.
    @discardableResult
    public func shutdown() -> Bool {
        let old = control.withLock { () -> [StationSession] in
            apply(.shutDown)
            let old = [session].compactMap { $0 } + leaving.map(\.session)
            leaving.removeAll()
            session = nil
            commands?.send(.shutDown)
            return old
        }
        old.forEach { $0.cancel() }
        warmStations.shutdown()
        let audioEnded = audioThread.wait(timeout: .now() + 2) == .success
        return networkThreads.wait(timeout: .now() + 2) == .success && audioEnded
    }

    // MARK: Observation

    /// The tuned station's session (its ring, its bitrate).
    var tunedSession: StationSession? { control.withLock { session } }

    /// The current state, station and title.
    public var status: PlayerStatus { control.withLock { published } }

    /// Calls `handler` with the current status now and with every change, on the event queue.
    public func observe(_ handler: @escaping @Sendable (PlayerStatus) -> Void) -> Observation {
        // Queued under the lock, as every change is, so the current status reaches the handler before any later one.
        let id = control.withLock { () -> Int in
            nextObserverID += 1
            statusObservers[nextObserverID] = handler
            let current = published
            events.async { handler(current) }
            return nextObserverID
        }
        return Observation { [weak self] in self?.control.withLock { _ = self?.statusObservers.removeValue(forKey: id) } }
    }

    /// Calls `handler` on the event queue whenever the listener starts hearing a new title (for the song history).
    public func observeTitles(_ handler: @escaping @Sendable (TrackTitle) -> Void) -> Observation {
        let id = control.withLock { () -> Int in
            nextObserverID += 1
            titleObservers[nextObserverID] = handler
            return nextObserverID
        }
        return Observation { [weak self] in self?.control.withLock { _ = self?.titleObservers.removeValue(forKey: id) } }
    }

    // MARK: Network events

    private func handle(_ event: StationSession.Event, from reporting: StationSession) {
        if warmStations.handle(event, from: reporting) { return }
        control.withLock {
            guard session === reporting else { return }
            switch event {
            case .connecting:
                apply(.connecting)
            case .stage(let next):
                apply(.stage(next))
            case .connected(let response):
                apply(.connected)
                streamName = response.name
                if let bitrate = response.bitrate, bitrate > 0 { session?.bytesPerSecond = bitrate * 125 }
            case .disconnected(let failure):
                apply(.disconnected(failure))
            case .failed(let failure):
                apply(.streamFailed(failure))
            }
        }
        publishStatus()
    }

    /// The device could not be opened or written and the audio goes nowhere, or it plays again (the audio thread).
    private func outputRouteChanged(_ route: AudioOutputRoute) {
        switch route {
        case .noDevice(let reason):
            logger.warning("no sound card: playing on in silence, the device tried again every few seconds",
                           metadata: ["audio.device": "\(settings.output.device)", "reason": "\(reason)"])
        case .device(let name):
            logger.notice("the sound card plays", metadata: ["audio.device": "\(name)"])
        case .configuredSilence:
            break
        }
        control.withLock { outputRoute = route }
        publishStatus()
    }

    // MARK: Status

    /// Derives the state from the network and audio sides and tells observers when it changed.
    private func publishStatus() {
        // Changes are queued under the lock: two threads publishing at once reach observers in the order
        // they were derived, so the last status an observer sees is the player's (not a stale "connecting"
        // after a failure).
        control.withLock {
            var next = published
            next.station = session?.station
            next.streamName = session == nil ? nil : streamName
            next.state = session == nil ? .idle : life.playerState
            next.connectionStage = life.connectionStage
            next.isReconnecting = session != nil && life.isReconnecting
            next.output = outputRoute
            if session == nil { next.title = nil }
            guard next != published else { return }
            published = next
            let observers = Array(statusObservers.values), changed = next
            events.async { observers.forEach { $0(changed) } }
        }
    }

    /// Applies `event` to the player's life at the clock's time; the session records as if paused
    /// while the player is paused or without a device. Called with `control` held.
    @discardableResult
    private func apply(_ event: PlayerLifecycle.Event) -> PlayerLifecycle.Effects {
        let before = life
        let effects = life.reduce(event, at: clock.now)
        // A session tuned anew records as it was made (a warm one as it was kept); the caller tells the audio thread.
        if case .tune = event { return effects }
        if life.holdsStream != before.holdsStream { session?.setPaused(life.holdsStream) }
        // A pause that ends in a failure stays silent: the audio thread does not resume into what is left.
        if life.isPaused != before.isPaused && life.failure == nil { commands?.send(life.isPaused ? .pause : .resume) }
        if life.speculative != before.speculative { commands?.send(.setSweep(sweepStage)) }
        if effects.endSession, let session { commands?.send(.endSession(session)) }
        return effects
    }

    private func publishTitle(_ title: String, from reporting: StationSession) {
        let station = reporting.station
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let track = TrackTitle(unixTime: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9, station: station, title: title)
        control.withLock {
            guard session === reporting, published.title != title else { return }
            published.title = title
            let current = published
            let statusHandlers = Array(statusObservers.values)
            let observers = Array(titleObservers.values)
            events.async {
                statusHandlers.forEach { $0(current) }
                observers.forEach { $0(track) }
            }
        }
    }

    // MARK: Audio thread

    /// Called with `control` held.
    private func startAudioThreadIfNeeded() {
        guard commands == nil else { return }
        let channel = AudioCommandChannel()
        commands = channel
        let programme = AudioLoop.Programme(session: session, tunedAt: life.tunedAt, paused: life.isPaused, gain: softwareGain,
                                            sweep: sweepStage, tone: tone)
        let loop = AudioLoop(settings: settings, output: output, clock: clock, loudnessMemory: loudnessMemory,
                             programme: programme, commands: channel) { [self] event, session in
            // The player lives while its audio thread runs, until ``shutdown()`` ends it.
            audioReported(event, from: session)
        }
        audioThread.enter()
        NamedThread.start(name: "wd-audio", stackSize: 512 * 1024) { [audioThread] in
            loop.run()
            audioThread.leave()
        }
    }

    /// The sweep stage's setting: a station tuned ahead is silent without a sweep. Called with `control` held.
    private var sweepStage: SweepMix.Setting? {
        sweep ?? (life.speculative ? SweepMix.Setting(level: 0, noise: false) : nil)
    }

    /// What the audio thread tells about `reporting`, the session it plays (or, drained, the one it now plays).
    private func audioReported(_ event: AudioEvent, from reporting: StationSession?) {
        if case .drained = event { return audioSwitched(to: reporting) }
        guard let reporting else { return }
        switch event {
        case .audible: audioDidChange(audible: true, session: reporting)
        case .silent: audioDidChange(audible: false, session: reporting)
        case .startTimedOut: startTimedOut(session: reporting)
        case .decoderFailed(let error): decoderFailed(error, session: reporting)
        case .outputLost(let error): outputLost(error, session: reporting)
        case .outputBack: outputRecovered(session: reporting)
        case .titleReached(let title): publishTitle(title, from: reporting)
        case .tick: refreshStatus()
        case .drained: break
        }
    }

    /// The audio thread reports whether sound is reaching the device for `session`.
    private func audioDidChange(audible: Bool, session reporting: StationSession) {
        let firstHeard = control.withLock { () -> Bool in
            guard session === reporting else { return false }
            return apply(audible ? .audible : .silent).firstHeard
        }
        // The playing station is heard: warm connections may be made now without delaying it.
        if firstHeard { warmStations.playerChanged() }
        publishStatus()
    }

    /// Re-evaluates time-dependent states (a long outage becomes "failed, retrying").
    private func refreshStatus() {
        control.withLock { _ = apply(.tick) }
        publishStatus()
    }

    /// The audio thread saw no audio within the start timeout: the session ends (the audio thread is told),
    /// unless the network is what failed (the station may be fine): then it goes on, shown as failed-and-retrying.
    private func startTimedOut(session reporting: StationSession) {
        let bytes = reporting.audioBytesDelivered
        // Plenty of bytes that never decoded are not audio we can play; a few bytes are a stream too slow to play.
        let plenty = max(65536, Int(settings.prebufferSeconds * Double(reporting.bytesPerSecond)) * 4)
        let silentFailure = bytes >= plenty ? PlaybackFailure(.formatNotSupported, detail: "no playable audio in \(bytes) bytes")
            : PlaybackFailure(.timedOut, detail: "no audio within \(Int(settings.startTimeout)) s (\(bytes) bytes)")
        let (ended, state) = control.withLock { () -> (Bool, PlayerLifecycle.State?) in
            guard session === reporting else { return (false, nil) }
            return (apply(.startTimedOut(silentFailure: silentFailure)).endSession, life.state)
        }
        if ended, case .failed(let failure) = state {
            reporting.cancel()
            logger.info("start timed out", metadata: ["stream.url": "\(reporting.station.url)", "reason": "\(failure)"])
        } else if case .retrying(let last) = state {
            logger.info("no network, still trying", metadata: ["stream.url": "\(reporting.station.url)", "reason": "\(last)"])
        }
        publishStatus()
    }

    /// The audio thread cannot decode the station's encoding (its codec library made no decoder): the
    /// station fails for good.
    private func decoderFailed(_ error: Error, session reporting: StationSession) {
        control.withLock {
            guard session === reporting else { return }
            apply(.decoderFailed(PlaybackFailure(.formatNotSupported, detail: "\(error)")))
        }
        reporting.cancel()
        logger.info("no decoder", metadata: ["stream.url": "\(reporting.station.url)", "error": "\(error)"])
        publishStatus()
    }

    /// The audio thread lost the device (open or write failed) and re-opens it with back-off. Until then
    /// the stream keeps recording as if paused, so play continues where the sound stopped (up to the
    /// time-shift bound, then live).
    private func outputLost(_ error: Error, session reporting: StationSession) {
        let first = control.withLock { () -> Bool in
            guard session === reporting else { return false }
            let first: Bool
            switch life.state {
            case .outputLost, .paused(outputLost: .some): first = false
            default: first = true
            }
            apply(.outputLost(PlaybackFailure(.outputFailed, detail: "\(error)")))
            return first
        }
        if first {
            logger.info("audio device lost; re-opening it", metadata: ["alsa.device": "\(settings.output.device)", "error": "\(error)"])
        }
        publishStatus()
    }

    /// The audio thread opened the lost device again.
    private func outputRecovered(session reporting: StationSession) {
        let recovered = control.withLock { () -> Bool in
            guard session === reporting else { return false }
            switch life.state {
            case .outputLost, .paused(outputLost: .some): break
            default: return false
            }
            apply(.outputBack)
            return true
        }
        guard recovered else { return }
        logger.info("audio device back", metadata: ["alsa.device": "\(settings.output.device)"])
        publishStatus()
    }
}
