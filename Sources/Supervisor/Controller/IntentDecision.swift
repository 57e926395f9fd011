import WavedialCore

/// What the radio does for an intent (a button, the remote, a control command), decided in the situation it is
/// in: pure, the other half of the controller's reducers beside ``Tuning``. `IntentDecisionTests` drive it with
/// values; ``RadioController`` carries the actions out.
enum IntentDecision {
    /// Where the player is, as an intent sees it.
    enum Playback: Equatable {
        /// Connecting, buffering, playing, or retrying a failure: on its way to the speaker or in it.
        case active
        case paused
        /// Idle, or failed for good.
        case stopped
    }

    /// What an intent needs to know of the radio.
    struct Situation: Equatable {
        var playback: Playback
        /// The station that plays (or would, paused or failed), by stationuuid.
        var current: String?
        var needle: Needle
        /// The stations on the band shown.
        var dial: DialBand
        /// Back and forward walk it; an intent that moves through it returns it moved.
        var history: StationHistory
        /// The favorites in their order: what `favorite(number:)` counts.
        var favoriteOrder: [String]
        /// 0–100.
        var volume: Int
    }

    /// What the controller does, in this order.
    enum Action: Equatable {
        /// Resumes the pause where it stopped (the time-shift plays).
        case resume
        case pause
        /// Plays `stationuuid`: a play that counts (recorded, reported, saved), added to the history.
        case tune(stationuuid: String)
        /// Plays `stationuuid` reached by back or forward: the history already stands on it.
        case tuneFromHistory(stationuuid: String)
        /// Moves the needle to `kHz` at once.
        case placeNeedle(kHz: Int)
        /// The tuned station a favorite, or no longer one.
        case toggleFavorite
        case switchBand
        case toggleMute
        /// The volume (0–100), unmuting.
        case setVolume(Int)
        case cycleSleepTimer
    }

    /// The actions for `intent`, or nil when there is nothing to do it to (no history to go back to, no station
    /// tuned to favorite, no such favorite, an empty band).
    static func decide(_ intent: RadioIntent, in situation: inout Situation) -> [Action]? {
        switch intent {
        case .play: return play(situation)
        case .pause: return situation.playback == .active ? [.pause] : []
        case .playPause: return situation.playback == .active ? [.pause] : play(situation)
        case .back: return situation.history.back().map { [.tuneFromHistory(stationuuid: $0)] }
        case .forward: return situation.history.forward().map { [.tuneFromHistory(stationuuid: $0)] }
        case .toggleFavorite: return situation.current == nil ? nil : [.toggleFavorite]
        case .switchBand: return [.switchBand]
        case .toggleMute: return [.toggleMute]
        case .changeVolume(let percent): return [.setVolume(min(max(situation.volume + max(min(percent, 100), -100), 0), 100))]
        case .stepStation(let steps): return step(by: steps, situation).map { [.tune(stationuuid: $0)] }
        case .favorite(let number):
            guard number >= 1, number <= situation.favoriteOrder.count else { return nil }
            return [.tune(stationuuid: situation.favoriteOrder[number - 1])]
        case .cycleSleepTimer: return [.cycleSleepTimer]
        }
    }

    /// Resumes a pause, tunes again a station that stopped, or tunes the station under the needle.
    private static func play(_ situation: Situation) -> [Action] {
        switch (situation.playback, situation.current) {
        case (.paused, _): return [.resume]
        case (.active, .some): return []
        case (.stopped, let current?): return [.tune(stationuuid: current)]
        case (_, nil):
            guard let entry = situation.dial.closest(to: situation.needle.kHz, direction: situation.needle.direction) else { return [] }
            return [.placeNeedle(kHz: entry.kHz), .tune(stationuuid: entry.stationuuid)]
        }
    }

    /// The station `steps` along the band shown from the needle (wrapping at its ends): from the station under
    /// it, or from between two stations as it stands.
    private static func step(by steps: Int, _ situation: Situation) -> String? {
        let entries = situation.dial.entries
        guard !entries.isEmpty, steps != 0 else { return nil }
        let needle = situation.needle.kHz
        var index: Int
        if let exact = entries.firstIndex(where: { $0.kHz == needle }) {
            index = exact
        } else {
            let above = entries.firstIndex { $0.kHz > needle } ?? entries.count
            index = steps > 0 ? above - 1 : above
        }
        index = ((index + steps % entries.count) % entries.count + entries.count) % entries.count
        return entries[index].stationuuid
    }
}
