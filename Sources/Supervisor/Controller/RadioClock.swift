import WavedialCore

/// The controller's clock-radio state: the sleep timer, the alarms and an alarm that is ringing.
/// Owned by the controller's queue (``RadioController+Clock``).
struct RadioClock {
    /// An alarm that went off and is not yet settled.
    enum Ringing: Equatable {
        /// Its station was tuned at `since` (monotonic ns) and has not been heard yet.
        case station(since: UInt64)
        /// The alarm's own tone sounds, since `since`.
        case tone(since: UInt64)
    }

    /// The Unix time now, in seconds (tests set a clock of their own).
    var wallClock: () -> Int64 = LocalClock.now
    /// The local zone's UTC offset at a Unix time (tests set a zone of their own).
    var utcOffset: AlarmSchedule.Offset = LocalClock.offset
    var sleep = SleepTimer()
    var alarms = AlarmClock()
    var ringing: Ringing?
    /// When the alarm's fade-in began (monotonic ns); nil when none runs.
    var fadeInSince: UInt64?
    /// The volume last handed to the player by the clock's fades.
    var lastLevel: Double?
    /// The share of the saved volume an alarm starts at.
    static let fadeInStartLevel = 0.15
    /// The lowest saved volume an alarm rings at (0–100): one set quieter is raised to it.
    static let lowestAlarmVolume = 20
}
