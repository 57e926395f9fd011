/// `[sleep]` and `[alarm]`: the sleep timer's fade and how alarms start.
public struct ClockSettings: Sendable, Equatable {
    /// `[sleep] fade_seconds`: the radio fades out over this long before the timer pauses it.
    public var sleepFadeSeconds = 10
    /// `[alarm] fade_in_seconds`: an alarm's station (or tone) rises from low to the saved volume over this long.
    public var alarmFadeInSeconds = 30
    /// `[alarm] station_timeout_seconds`: an alarm's station that is not heard within this long (or fails
    /// sooner, or there is no network) gives way to the alarm's own tone.
    public var alarmStationTimeoutSeconds = 20
    /// `[alarm] tone_minutes`: the tone stops by itself after this long when nobody stops it.
    public var alarmToneMinutes = 30

    public init() {}

    /// Reads `[sleep]` and `[alarm]`, recording problems in the sections' file.
    public init(sleep: ConfigSection, alarm: ConfigSection) {
        sleepFadeSeconds = sleep.int("fade_seconds", default: sleepFadeSeconds, range: 0...300)
        alarmFadeInSeconds = alarm.int("fade_in_seconds", default: alarmFadeInSeconds, range: 0...600)
        alarmStationTimeoutSeconds = alarm.int("station_timeout_seconds", default: alarmStationTimeoutSeconds, range: 1...300)
        alarmToneMinutes = alarm.int("tone_minutes", default: alarmToneMinutes, range: 1...240)
    }
}
