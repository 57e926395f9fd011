import Threads

/// What the player tells its audio thread, one way: the thread keeps its own ``AudioLoop/Programme`` and
/// plays from it; it never reads the player's state.
enum AudioCommand {
    /// Play `session` (nil: no station), tuned at `tunedAt` on the player's clock; not paused.
    case play(StationSession?, tunedAt: Double)
    case pause
    case resume
    /// The samples' gain for the volume.
    case setGain(Float)
    /// The sweep stage's setting (a station tuned ahead is silent without a sweep).
    case setSweep(SweepMix.Setting?)
    /// The alarm's tone sounds (while no station is tuned).
    case setTone(Bool)
    /// The player ended `session` (it failed for good): nothing more is read from it.
    case endSession(StationSession)
    /// Fade out, close the device, end the thread.
    case shutDown
}

/// What the audio thread tells the player, one way, about the session it plays.
enum AudioEvent {
    /// Sound reaches the device / stopped reaching it.
    case audible
    case silent
    /// No audio within the start timeout.
    case startTimedOut
    /// The codec library made no decoder for the station's encoding.
    case decoderFailed(Error)
    /// The device failed to open or write; it is re-opened with back-off.
    case outputLost(Error)
    case outputBack
    /// The listener started hearing `title`.
    case titleReached(String)
    /// Time passed with no sound (a long outage may become "failed, retrying").
    case tick
    /// The thread left every session but this one (faded out): they may be kept warm.
    case drained
}

/// The one-way channel of ``AudioCommand``s from any thread to the audio thread, in order. A command that
/// makes earlier ones moot replaces those still waiting (a setting its older value, a pause a resume, a
/// station switch whatever concerned the station before), so the channel stays a handful of commands long
/// even while the audio thread is blocked in a write.
final class AudioCommandChannel: @unchecked Sendable {
    private let condition = ConditionLock()
    private var pending: [AudioCommand] = []

    func send(_ command: AudioCommand) {
        condition.withLock {
            pending.removeAll { Self.supersedes(command, $0) }
            pending.append(command)
            condition.broadcast()
        }
    }

    /// The commands sent since the last call, oldest first (none: an empty array at once).
    func receive() -> [AudioCommand] {
        condition.withLock {
            let commands = pending
            pending.removeAll()
            return commands
        }
    }

    /// Blocks until a command is waiting, or `timeout` seconds passed.
    func wait(timeout: Double) {
        condition.withLock {
            let deadline = ConditionLock.Deadline.after(seconds: timeout)
            while pending.isEmpty && condition.wait(until: deadline) {}
        }
    }

    /// Whether `newer` leaves nothing for `older` to do.
    private static func supersedes(_ newer: AudioCommand, _ older: AudioCommand) -> Bool {
        switch (newer, older) {
        case (.setGain, .setGain), (.setSweep, .setSweep), (.setTone, .setTone): return true
        case (.pause, .pause), (.pause, .resume), (.resume, .pause), (.resume, .resume): return true
        case (.play, .play), (.play, .pause), (.play, .resume), (.play, .endSession): return true
        default: return false
        }
    }
}
