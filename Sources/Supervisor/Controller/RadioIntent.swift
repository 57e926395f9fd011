import Hardware

/// What the listener asks of the radio, whichever control it came from: a button, the knob's push, a
/// remote's key or a control command. Inputs only map to intents (``forButton(_:_:)`` for the device's
/// buttons); ``RadioController`` carries them out.
public enum RadioIntent: Sendable, Equatable {
    /// Resumes a pause, retunes a station that failed, or tunes the station under the needle.
    case play
    case pause
    /// Pauses what plays, plays what does not (a remote's single play/pause key).
    case playPause
    /// The station tuned before, along the listening history.
    case back
    /// The station tuned after, along the listening history.
    case forward
    case toggleFavorite
    /// The nearby band and the favorites band, in turn.
    case switchBand
    case toggleMute
    /// The volume up (positive) or down by `percent` points of 0–100, unmuting.
    case changeVolume(byPercent: Int)
    /// The next (`by` > 0) or the previous station along the band shown, the needle moving to it;
    /// past either end of the band the other end follows.
    case stepStation(by: Int)
    /// The `number`th favorite (from 1, in the order of `wavedial fav list`).
    case favorite(number: Int)
    /// The sleep timer's next step: off → 15 → 30 → 60 minutes → off (``SleepTimer/cycleMinutes``).
    case cycleSleepTimer

    /// The device's buttons: what a button's action asks, or nil when it asks nothing.
    public static func forButton(_ name: String, _ action: ButtonAction) -> RadioIntent? {
        switch (name, action) {
        case ("play", .click): return .play
        case ("pause", .click): return .pause
        case ("back", .click): return .back
        case ("forward", .click): return .forward
        case ("favorite", .click): return .toggleFavorite
        case ("favorite", .long): return .switchBand
        case ("push", .click): return .toggleMute
        case (InputDecoder.volumePushName, .click): return .toggleMute
        case ("pause", .long): return .cycleSleepTimer
        default: return nil
        }
    }
}
