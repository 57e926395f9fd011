/// The player's life as one value: what it is doing (``State``) and what it knows of the tuned station
/// (its connection, whether it was heard, since when it is silent). ``reduce(_:at:)`` is the only way it
/// changes, and ``status`` (what observers see) is derived from it. Pure: no threads and no clock (the time
/// comes with each event), so every transition is a row in a table test.
struct PlayerLifecycle: Equatable, Sendable {
    /// What the player is doing.
    enum State: Equatable, Sendable {
        /// Nothing tuned (at start, after ``Event/stop``).
        case idle
        /// Tuned, not connected and never heard: reaching the station (``PlayerLifecycle/stage`` says how far).
        case connecting
        /// Connected, or heard before: waiting for audio to reach the device.
        case buffering
        /// Audio is reaching the device.
        case playing
        /// Paused by the listener; the stream keeps recording. `outputLost`: the device went away meanwhile
        /// (resuming shows it lost until it is back).
        case paused(outputLost: PlaybackFailure?)
        /// The device is gone and being re-opened; the stream keeps recording as if paused.
        case outputLost(PlaybackFailure)
        /// Silent longer than the start timeout while the connection is retried (a long outage, or no
        /// network at the start): shown failed, and the player keeps trying.
        case retrying(PlaybackFailure)
        /// The station cannot be played; ends only with another tune or a stop.
        case failed(PlaybackFailure)
        /// The player shut down: nothing changes any more.
        case shutDown
    }

    /// The network side of the tuned station.
    enum Link: Equatable, Sendable {
        case connecting
        case connected
        /// The connection dropped or failed and the session tries again; sticky until connected.
        case retrying(PlaybackFailure)
    }

    /// What happens to the player: its commands, its station's network events and its audio thread's reports.
    enum Event: Equatable, Sendable {
        /// A station is tuned: a new session (`connected` when a warm station is adopted; `speculative`
        /// when tuned ahead by ``Player/prepare(_:)``).
        case tune(connected: Bool, speculative: Bool)
        /// ``Player/play(_:)`` of the station tuned ahead: it is played for real (and unpaused).
        case adopt
        case pause
        case resume
        case stop
        case shutDown
        /// The session starts an attempt to connect.
        case connecting
        /// The attempt's progress.
        case stage(ConnectionStage)
        case connected
        /// The connection failed or dropped; the session retries.
        case disconnected(PlaybackFailure)
        /// The session gave up for good.
        case streamFailed(PlaybackFailure)
        /// Sound reaches the device / stopped reaching it.
        case audible
        case silent
        case outputLost(PlaybackFailure)
        case outputBack
        /// No audio within the start timeout; `silentFailure` is what a connected but silent stream failed with.
        case startTimedOut(silentFailure: PlaybackFailure)
        /// The codec library made no decoder for the station's encoding.
        case decoderFailed(PlaybackFailure)
        /// Time passed: a long silence while retrying becomes ``State/retrying(_:)``.
        case tick
    }

    /// What the player must do after an event.
    struct Effects: Equatable, Sendable {
        /// The session is to be cancelled: its station failed for good.
        var endSession = false
        /// The station was heard for the first time since it was tuned.
        var firstHeard = false
    }

    private(set) var state = State.idle
    private(set) var link = Link.connecting
    /// What the session does to reach the station, shown while ``State/connecting``.
    private(set) var stage: ConnectionStage?
    /// Whether the tuned station reached the device since it was tuned.
    private(set) var everHeard = false
    /// Since when the listener waits for sound: set when the station went silent after being heard, or
    /// (back-dated to the tune) when the start timed out; nil while audible.
    private(set) var silentSince: Double?
    /// When the station was tuned.
    private(set) var tunedAt = 0.0
    /// Tuned ahead (``Player/prepare(_:)``): heard only under a sweep until adopted.
    private(set) var speculative = false
    /// How long silence while retrying lasts before the state says failed (``PlayerSettings/startTimeout``).
    let startTimeout: Double

    init(startTimeout: Double) {
        self.startTimeout = startTimeout
    }

    /// A station is tuned and has not failed (it may be paused or without its device).
    var isTuned: Bool {
        switch state {
        case .idle, .failed, .shutDown: return false
        default: return true
        }
    }

    var isPaused: Bool {
        if case .paused = state { return true }
        return false
    }

    /// The stream records as if paused: paused, or no device to play it.
    var holdsStream: Bool {
        switch state {
        case .paused, .outputLost: return true
        default: return false
        }
    }

    var failure: PlaybackFailure? {
        if case .failed(let failure) = state { return failure }
        return nil
    }

    /// Applies `event`, which happened at `now` (seconds on the player's clock).
    @discardableResult
    mutating func reduce(_ event: Event, at now: Double) -> Effects {
        var effects = Effects()
        if state == .shutDown { return effects }
        switch event {
        case .tune(let connected, let speculative):
            self = PlayerLifecycle(startTimeout: startTimeout)
            link = connected ? .connected : .connecting
            tunedAt = now
            self.speculative = speculative
            state = waiting(at: now)
        case .adopt:
            guard speculative, isTuned else { return effects }
            speculative = false
            // Play means play: a pause while it was only tuned ahead ends here.
            if case .paused(let lost) = state { state = lost.map(State.outputLost) ?? waiting(at: now) }
        case .pause:
            guard isTuned, !isPaused else { return effects }
            if case .outputLost(let failure) = state { state = .paused(outputLost: failure) } else { state = .paused(outputLost: nil) }
        case .resume:
            guard case .paused(let lost) = state else { return effects }
            state = lost.map(State.outputLost) ?? waiting(at: now)
        case .stop:
            self = PlayerLifecycle(startTimeout: startTimeout)
        case .shutDown:
            self = PlayerLifecycle(startTimeout: startTimeout)
            state = .shutDown
        case .connecting:
            guard isTuned else { return effects }
            if case .retrying = link { return effects }
            link = .connecting
            settle(at: now)
        case .stage(let next):
            // Between retries the last failure says more than the next attempt's steps (and does not flicker).
            guard isTuned else { return effects }
            if case .retrying = link { return effects }
            stage = next
        case .connected:
            guard isTuned else { return effects }
            link = .connected
            settle(at: now)
        case .disconnected(let failure):
            guard isTuned else { return effects }
            link = .retrying(failure)
            stage = .retrying(failure)
            settle(at: now)
        case .streamFailed(let failure):
            guard isTuned else { return effects }
            state = .failed(failure)
        case .decoderFailed(let failure):
            guard isTuned else { return effects }
            state = .failed(failure)
            effects.endSession = true
        case .audible:
            guard isTuned else { return effects }
            effects.firstHeard = !everHeard
            everHeard = true
            silentSince = nil
            switch state {
            case .connecting, .buffering, .retrying: state = .playing
            default: break
            }
        case .silent:
            guard isTuned else { return effects }
            if silentSince == nil { silentSince = now }
            if state == .playing { state = waiting(at: now) }
        case .outputLost(let failure):
            guard isTuned else { return effects }
            if isPaused { state = .paused(outputLost: failure) } else { state = .outputLost(failure) }
        case .outputBack:
            switch state {
            case .paused: state = .paused(outputLost: nil)
            case .outputLost: state = waiting(at: now)
            default: break
            }
        case .startTimedOut(let silentFailure):
            guard isTuned else { return effects }
            switch link {
            case .retrying(let last) where last.code == .noNetwork:
                // The station may be fine: the session keeps trying, and the state says what is wrong.
                if silentSince == nil { silentSince = tunedAt }
                if !holdsStream { state = .retrying(last) }
            case .retrying(let last):
                state = .failed(last)
                effects.endSession = true
            case .connecting, .connected:
                state = .failed(silentFailure)
                effects.endSession = true
            }
        case .tick:
            settle(at: now)
        }
        return effects
    }

    /// Re-derives a waiting state (connecting, buffering, retrying) from what is known at `now`.
    private mutating func settle(at now: Double) {
        switch state {
        case .connecting, .buffering, .retrying: state = waiting(at: now)
        default: break
        }
    }

    /// What the player shows while it waits for audio.
    private func waiting(at now: Double) -> State {
        if case .retrying(let failure) = link, let silentSince, now - silentSince >= startTimeout { return .retrying(failure) }
        if everHeard || link == .connected { return .buffering }
        return .connecting
    }

    /// The state observers see.
    var playerState: PlayerState {
        switch state {
        case .idle, .shutDown: return .idle
        case .connecting: return .connecting
        case .buffering: return .buffering
        case .playing: return .playing
        case .paused: return .paused
        case .outputLost(let failure), .retrying(let failure): return .failed(failure, willRetry: true)
        case .failed(let failure): return .failed(failure, willRetry: false)
        }
    }

    /// The stream dropped after it was heard and the session connects again (it may still play from its buffer).
    var isReconnecting: Bool {
        guard case .retrying = link, everHeard else { return false }
        switch state {
        case .idle, .shutDown: return false
        default: return true
        }
    }

    /// The connection stage observers see (only while connecting).
    var connectionStage: ConnectionStage? { state == .connecting ? stage : nil }
}
