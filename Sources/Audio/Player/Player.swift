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

    private enum NetPhase: Equatable {
        case connecting
        case connected
        case retrying(PlaybackFailure)
    }

    public let settings: PlayerSettings
    /// The device the audio thread plays to (only that thread touches it).
    let output: AudioOutput
    /// The sound card's volume control, when the hardware turns the volume; used under `control`.
    private let mixer: AlsaMixer?
    /// Whether the mixer's last setting failed: logged once, not at every step of the knob.
    private var mixerFailed = false
    private let logger: Logger
    private let control = ConditionLock()
    private let events = DispatchQueue(label: "wd-player-events")
    /// Every station session's network thread, also those of sessions replaced and still winding down.
    private let networkThreads = DispatchGroup()
    /// Stations' loudness: the guess at tune and the measurements' observers (``observeLoudness(_:)``).
    let loudnessMemory = LoudnessMemory()

    // Guarded by `control`.
    private var session: StationSession?
    private var sessionStart = 0.0
    private var isPaused = false
    private var isShuttingDown = false
    private var level: Double
    private var netPhase = NetPhase.connecting
    /// What the session is doing to reach the station, shown while the state is connecting.
    private var stage: ConnectionStage?
    private var isAudible = false
    private var everPlayed = false
    private var silentSince: Double?
    private var terminalFailure: PlaybackFailure?
    /// The device is lost and the audio thread is re-opening it (not terminal).
    private var outputFailure: PlaybackFailure?
    /// The start timed out with no network: the session keeps retrying and the state says so.
    private var awaitingNetwork = false
    private var streamName: String?
    /// The session was started by ``prepare(_:)``: heard only under a sweep until ``play(_:)`` adopts it.
    private var isSpeculative = false
    private var sweep: SweepMix.Setting?
    /// The alarm's own tone sounds while no station is tuned (``soundAlarmTone(_:)``).
    private var tone = false
    private var published = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)
    private var statusObservers: [Int: (PlayerStatus) -> Void] = [:]
    private var titleObservers: [Int: (TrackTitle) -> Void] = [:]
    private var nextObserverID = 0
    private var audioThreadRunning = false
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
    public init(settings: PlayerSettings = PlayerSettings(), logger: Logger = Logger(label: "wavedial.audio"),
                output: AudioOutput? = nil, mixer: AlsaMixer? = nil) {
        self.settings = settings
        self.output = output ?? AlsaOutput(settings: settings.output)
        self.mixer = mixer
        self.logger = logger
        level = settings.volume
        warmStations = WarmStations(
            settings: settings.warm, logger: logger, makeSession: { [weak self] station in
                StationSession(station: station, settings: settings, logger: logger) { session, event in
                    self?.handle(event, from: session)
                }
            }, startSession: { [networkThreads] in $0.start(in: networkThreads) },
            listening: { [weak self] in self?.listening() ?? WarmStations.Listening(active: false, heard: false, connected: false) })
        control.withLock { setMixer() }
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
            guard isSpeculative, session?.station == station, terminalFailure == nil, !isShuttingDown else { return false }
            isSpeculative = false
            // Play means play: a pause while it was only tuned ahead ends here, as a new play's would.
            if isPaused {
                isPaused = false
                session?.setPaused(outputFailure != nil)
            }
            control.broadcast()
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
        guard !control.withLock({ session?.station == station && terminalFailure == nil }) else { return }
        start(station, speculative: true)
    }

    /// The programme's level while the needle sweeps, 0...1 (nil: not sweeping: the programme at full and no
    /// hiss), and whether a quiet inter-station hiss fills the rest (also while nothing is tuned: the device
    /// then plays the hiss alone). Changes ramp smoothly. Any thread.
    public func setSweep(level: Double?, noise: Bool = true) {
        control.withLock {
            guard !isShuttingDown else { return }
            sweep = level.map { SweepMix.Setting(level: $0, noise: noise) }
            if sweep != nil { startAudioThreadIfNeeded() }
            control.broadcast()
        }
    }

    /// Sounds the alarm's tone (beeps made here, no network needed) at the volume, or ends it (faded out).
    /// Heard only while no station is tuned: stop the player first. Any thread.
    public func soundAlarmTone(_ on: Bool) {
        control.withLock {
            guard !isShuttingDown, tone != on else { return }
            tone = on
            if on { startAudioThreadIfNeeded() }
            control.broadcast()
        }
    }

    private func start(_ station: PlayableStation, speculative: Bool) {
        guard !control.withLock({ isShuttingDown }) else { return }
        let adopted = warmStations.take(station)
        adopted?.session.play()
        let newSession = adopted?.session ?? StationSession(station: station, settings: settings, logger: logger) { [weak self] session, event in
            self?.handle(event, from: session)
        }
        let keepWarm = control.withLock { session }.map { warmStations.wants($0.station) } ?? false
        let old = control.withLock { () -> StationSession? in
            let old = session
            if let old, keepWarm { leaving.append((old, streamName, netPhase == .connected)) }
            session = newSession
            sessionStart = StationSession.now
            isPaused = false
            netPhase = adopted?.connected == true ? .connected : .connecting
            stage = nil
            everPlayed = false
            silentSince = nil
            terminalFailure = nil
            outputFailure = nil
            awaitingNetwork = false
            streamName = adopted?.streamName
            isSpeculative = speculative
            published.title = nil
            startAudioThreadIfNeeded()
            control.broadcast()
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
            WarmStations.Listening(session: session, active: session != nil && !isPaused && terminalFailure == nil,
                                   heard: everPlayed, connected: netPhase == .connected,
                                   leaving: leaving.map(\.session.station))
        }
    }

    /// The audio thread reads only `current` from now on: the sessions it faded out are handed to the warm stations.
    func audioSwitched(to current: StationSession?) {
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
            guard session != nil, terminalFailure == nil else { return }
            isPaused = true
            session?.setPaused(true)
            control.broadcast()
        }
        warmStations.playerChanged()
        publishStatus()
    }

    /// Resumes after ``pause()``, from where it paused or live when the time-shift bound was passed.
    public func resume() {
        control.withLock {
            guard isPaused else { return }
            isPaused = false
            // While the device is gone the stream keeps recording as if paused.
            session?.setPaused(outputFailure != nil)
            control.broadcast()
        }
        warmStations.playerChanged()
        publishStatus()
    }

    /// Stops playback with a fade-out and releases the stream; the device is closed.
    public func stop() {
        let old = control.withLock { () -> [StationSession] in
            let old = [session].compactMap { $0 } + leaving.map(\.session)
            leaving.removeAll()
            session = nil
            isPaused = false
            isSpeculative = false
            terminalFailure = nil
            outputFailure = nil
            published.title = nil
            control.broadcast()
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
            }
        }
    }

    /// The samples' gain for the volume: unity under a hardware mixer (silence at 0, whatever the
    /// control's minimum). Called with `control` held.
    private var softwareGain: Float {
        mixer == nil ? Volume.gain(forLevel: level) : (level > 0 ? 1 : 0)
    }

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
            isShuttingDown = true
            let old = [session].compactMap { $0 } + leaving.map(\.session)
            leaving.removeAll()
            session = nil
            control.broadcast()
            return old
        }
        old.forEach { $0.cancel() }
        warmStations.shutdown()
        let audioEnded = control.withLock { () -> Bool in
            let deadline = ConditionLock.Deadline.after(seconds: 2)
            while audioThreadRunning && control.wait(until: deadline) {}
            return !audioThreadRunning
        }
        return networkThreads.wait(timeout: .now() + 2) == .success && audioEnded
    }

    // MARK: Observation

    /// The current state, station and title.
    public var status: PlayerStatus { control.withLock { published } }

    /// Calls `handler` with the current status now and with every change, on the event queue.
    public func observe(_ handler: @escaping (PlayerStatus) -> Void) -> Observation {
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
    public func observeTitles(_ handler: @escaping (TrackTitle) -> Void) -> Observation {
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
                if case .retrying = netPhase { return }
                netPhase = .connecting
            case .stage(let next):
                // Between retries the last failure says more than the next attempt's steps (and does not flicker).
                if case .retrying = netPhase { return }
                stage = next
            case .connected(let response):
                netPhase = .connected
                streamName = response.name
                if let bitrate = response.bitrate, bitrate > 0 { session?.bytesPerSecond = bitrate * 125 }
            case .disconnected(let failure):
                netPhase = .retrying(failure)
                stage = .retrying(failure)
            case .failed(let failure):
                terminalFailure = failure
            }
        }
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
            next.state = derivedState()
            next.connectionStage = next.state == .connecting ? stage : nil
            if case .retrying = netPhase, everPlayed { next.isReconnecting = session != nil } else { next.isReconnecting = false }
            if session == nil { next.title = nil }
            guard next != published else { return }
            published = next
            let observers = Array(statusObservers.values), changed = next
            events.async { observers.forEach { $0(changed) } }
        }
    }

    /// Called with `control` held.
    private func derivedState() -> PlayerState {
        guard session != nil else { return .idle }
        if let terminalFailure { return .failed(terminalFailure, willRetry: false) }
        if isPaused { return .paused }
        if let outputFailure { return .failed(outputFailure, willRetry: true) }
        if isAudible { return .playing }
        if case .retrying(let failure) = netPhase, let silentSince,
           StationSession.now - silentSince >= settings.startTimeout {
            return .failed(failure, willRetry: true)
        }
        if awaitingNetwork, case .retrying(let failure) = netPhase { return .failed(failure, willRetry: true) }
        if everPlayed || netPhase == .connected { return .buffering }
        return .connecting
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
        guard !audioThreadRunning else { return }
        audioThreadRunning = true
        NamedThread.start(name: "wd-audio", stackSize: 512 * 1024) { [self] in
            AudioLoop(player: self).run()
            control.withLock {
                audioThreadRunning = false
                control.broadcast()
            }
        }
    }

    /// What the audio thread needs to know at the top of each step.
    struct Command {
        var session: StationSession?
        var sessionStart: Double
        var paused: Bool
        var shuttingDown: Bool
        var gain: Float
        /// The sweep stage's setting; a station tuned ahead is silent without a sweep.
        var sweep: SweepMix.Setting?
        /// The alarm's tone sounds (while no station is tuned).
        var tone = false

        /// Whether the audio thread is to leave `session` (switch, pause or shut down).
        func leaves(_ session: StationSession) -> Bool { self.session !== session || paused || shuttingDown }
    }

    func currentCommand() -> Command {
        control.withLock {
            Command(session: session, sessionStart: sessionStart, paused: isPaused, shuttingDown: isShuttingDown,
                    gain: softwareGain, sweep: sweepStage, tone: tone)
        }
    }

    /// Called with `control` held.
    private var sweepStage: SweepMix.Setting? {
        sweep ?? (isSpeculative ? SweepMix.Setting(level: 0, noise: false) : nil)
    }

    /// Blocks the audio thread until the command differs from `command` (or `timeout` passes).
    func waitForCommandChange(from command: Command, timeout: Double) {
        control.withLock {
            let deadline = ConditionLock.Deadline.after(seconds: timeout)
            while session === command.session && isPaused == command.paused && isShuttingDown == command.shuttingDown
                && sweepStage == command.sweep && tone == command.tone && control.wait(until: deadline) {}
        }
    }

    /// The audio thread reports whether sound is reaching the device for `session`.
    func audioDidChange(audible: Bool, session reporting: StationSession) {
        let firstHeard = control.withLock { () -> Bool in
            guard session === reporting else { return false }
            let first = audible && !everPlayed
            if audible {
                isAudible = true
                everPlayed = true
                silentSince = nil
            } else {
                isAudible = false
                if silentSince == nil { silentSince = StationSession.now }
            }
            return first
        }
        // The playing station is heard: warm connections may be made now without delaying it.
        if firstHeard { warmStations.playerChanged() }
        publishStatus()
    }

    /// Re-evaluates time-dependent states (a long outage becomes "failed, retrying").
    func refreshStatus() { publishStatus() }

    /// The audio thread saw no audio within the start timeout. - Returns: whether the session ended; it
    /// goes on when the network is what failed (the station may be fine), shown as failed-and-retrying.
    func startTimedOut(session reporting: StationSession) -> Bool {
        let failure: PlaybackFailure
        let bytes = reporting.audioBytesDelivered
        switch control.withLock({ netPhase }) {
        case .retrying(let last) where last.code == .noNetwork:
            control.withLock { if session === reporting { awaitingNetwork = true } }
            logger.info("no network, still trying", metadata: ["stream.url": "\(reporting.station.url)", "reason": "\(last)"])
            publishStatus()
            return false
        case .retrying(let last):
            failure = last
        default:
            // Plenty of bytes that never decoded are not audio we can play; a few bytes are a stream too slow to play.
            let plenty = max(65536, Int(settings.prebufferSeconds * Double(reporting.bytesPerSecond)) * 4)
            failure = bytes >= plenty ? PlaybackFailure(.formatNotSupported, detail: "no playable audio in \(bytes) bytes")
                : PlaybackFailure(.timedOut, detail: "no audio within \(Int(settings.startTimeout)) s (\(bytes) bytes)")
        }
        control.withLock {
            guard session === reporting, terminalFailure == nil else { return }
            terminalFailure = failure
        }
        reporting.cancel()
        logger.info("start timed out", metadata: ["stream.url": "\(reporting.station.url)", "reason": "\(failure)"])
        publishStatus()
        return true
    }

    /// The audio thread cannot decode the station's encoding (its codec library made no decoder): the
    /// station fails for good.
    func decoderFailed(_ error: Error, session reporting: StationSession) {
        control.withLock {
            guard session === reporting else { return }
            terminalFailure = PlaybackFailure(.formatNotSupported, detail: "\(error)")
            isAudible = false
        }
        reporting.cancel()
        logger.info("no decoder", metadata: ["stream.url": "\(reporting.station.url)", "error": "\(error)"])
        publishStatus()
    }

    /// The audio thread lost the device (open or write failed) and re-opens it with back-off. Until then
    /// the stream keeps recording as if paused, so play continues where the sound stopped (up to the
    /// time-shift bound, then live).
    func outputLost(_ error: Error, session reporting: StationSession) {
        let first = control.withLock { () -> Bool in
            guard session === reporting else { return false }
            let first = outputFailure == nil
            outputFailure = PlaybackFailure(.outputFailed, detail: "\(error)")
            isAudible = false
            reporting.setPaused(true)
            return first
        }
        if first {
            logger.info("audio device lost; re-opening it", metadata: ["alsa.device": "\(settings.output.device)", "error": "\(error)"])
        }
        publishStatus()
    }

    /// The audio thread opened the lost device again.
    func outputRecovered(session reporting: StationSession) {
        let recovered = control.withLock { () -> Bool in
            guard session === reporting, outputFailure != nil else { return false }
            outputFailure = nil
            reporting.setPaused(isPaused)
            return true
        }
        guard recovered else { return }
        logger.info("audio device back", metadata: ["alsa.device": "\(settings.output.device)"])
        publishStatus()
    }

    /// The audio thread reached `title` in the audio it plays.
    func titleReached(_ title: String, session reporting: StationSession) {
        publishTitle(title, from: reporting)
    }
}
