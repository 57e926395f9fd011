import WavedialCore

/// The knob's side of the radio as a pure reducer: a detent or a tick at a time, in the radio's context,
/// gives the new state and the effects the controller carries out (the player tunes ahead, the sweep's level,
/// the station the knob rests on). No queue, no player, no clock: `TuningTests` drive it with values.
///
/// While the needle turns, the station nearest it is tuned ahead (not while the knob spins, ``KnobPace``) and,
/// with `[dial] sweep`, heard at its level under the needle (``SweepCurve``), hiss between; when the knob has
/// rested `snap_delay_ms` the needle snaps to the nearest station, which plays.
struct Tuning: Equatable {
    /// What the controller does for the knob.
    enum Effect: Equatable {
        /// Connect and decode `stationuuid` ahead, heard only under the sweep (``RadioPlayer/prepare(_:)``).
        case prepare(stationuuid: String)
        /// The sweep's level under the needle (0: hiss only), or nil: the programme back at full, no hiss.
        case sweep(level: Double?)
        /// The knob rested on `stationuuid`: tune it, a play that counts (recorded, reported, saved).
        case tune(stationuuid: String)
        /// The knob rested back on the station that played after others were tuned ahead: it plays on (from the
        /// connection made ahead when there is one); not a new play.
        case playAgain(stationuuid: String)
    }

    /// What the knob does not decide but needs to know.
    struct Context {
        /// The stations on the band shown.
        var dial: DialBand
        /// The station that plays (or would, paused or failed), by stationuuid.
        var current: String?
        /// Whether it is on its way to the speaker or in it (retrying counts).
        var isActive: Bool
        /// A paused radio only moves its needle.
        var isPaused: Bool
        var settings: DialSettings
    }

    private(set) var needle: Needle
    private(set) var pace = KnobPace()
    /// The station the player has now, by stationuuid: the current one, or while the knob turns the one tuned
    /// ahead, which plays only once the knob rests on it.
    private(set) var inPlayer: String?
    private(set) var inPlayerIsAhead = false
    /// The sweep level last asked of the player; nil when not sweeping.
    private(set) var sweepLevel: Double?

    init(needle: Needle) {
        self.needle = needle
    }

    /// A detent of `delta` channels at `time` (the edge's timestamp).
    mutating func turn(_ delta: Int, at time: UInt64, _ context: Context) -> [Effect] {
        needle.turn(delta, on: context.settings.band, at: max(time, 1))
        pace.detent(delta, at: time)
        return follow(at: time, context)
    }

    /// Time passes: the needle snaps once the knob has rested; while it turns, the station ahead and the sweep
    /// follow it.
    mutating func tick(at time: UInt64, _ context: Context) -> [Effect] {
        var effects: [Effect] = []
        let rest = UInt64(context.settings.snapDelayMilliseconds) * 1_000_000
        if let entry = needle.snapIfRested(on: context.dial, at: time, rest: rest) {
            if entry.stationuuid != context.current || !context.isActive {
                effects.append(.tune(stationuuid: entry.stationuuid))
            } else if entry.stationuuid != inPlayer || inPlayerIsAhead {
                effects.append(.playAgain(stationuuid: entry.stationuuid))
                tuned(entry.stationuuid)
            }
        }
        return effects + (needle.isTurning ? follow(at: time, context) : endSweep())
    }

    /// The player was given `stationuuid` to play (the knob's rest, a button, the CLI): it is what the player
    /// has, not ahead.
    mutating func tuned(_ stationuuid: String) {
        inPlayer = stationuuid
        inPlayerIsAhead = false
    }

    /// Whether the player has something else than `current`, or has it only ahead: a band switch plays
    /// `current` again.
    func isAhead(of current: String) -> Bool { inPlayer != current || inPlayerIsAhead }

    /// Puts the needle on `kHz` at once (a station tuned by back/forward, the CLI or a band switch).
    mutating func place(at kHz: Int) { needle.place(at: kHz) }

    /// The knob rested or the needle was placed: the programme back at full, the hiss gone (ramped by the player).
    mutating func endSweep() -> [Effect] {
        guard sweepLevel != nil else { return [] }
        sweepLevel = nil
        return [.sweep(level: nil)]
    }

    private mutating func follow(at time: UInt64, _ context: Context) -> [Effect] {
        guard needle.isTurning, !context.isPaused else { return [] }
        var effects: [Effect] = []
        let fast = pace.isFast(at: time)
        if !fast, let entry = context.dial.closest(to: needle.kHz, direction: needle.direction), entry.stationuuid != inPlayer {
            effects.append(.prepare(stationuuid: entry.stationuuid))
            inPlayer = entry.stationuuid
            inPlayerIsAhead = true
        }
        guard context.settings.sweep else { return effects }
        var level = 0.0
        if !fast, let uuid = inPlayer, let kHz = context.dial.frequency(of: uuid) {
            level = SweepCurve.level(needleKHz: needle.kHz, stationKHz: kHz, band: context.dial.band)
        }
        guard level != sweepLevel else { return effects }
        sweepLevel = level
        return effects + [.sweep(level: level)]
    }
}
