import Audio

/// The player as the controller drives it: the seam between the appliance's logic and
/// the audio engine (`Audio.Player`), so the controller's rules can be tested alone.
public protocol RadioPlayer: AnyObject {
    func play(_ station: PlayableStation)
    /// Tunes `station` ahead while the knob turns: connected, heard only under a sweep; a later ``play(_:)``
    /// of it plays from that connection (``Player/prepare(_:)``).
    func prepare(_ station: PlayableStation)
    /// The level of the station tuned while the needle sweeps, 0...1, and whether hiss fills the rest; nil
    /// ends the sweep (``Player/setSweep(level:noise:)``).
    func setSweep(level: Double?, noise: Bool)
    func pause()
    func resume()
    func stop()
    /// Sounds the alarm's own tone, made without any network, while no station is tuned; false ends it
    /// (``Player/soundAlarmTone(_:)``).
    func soundAlarmTone(_ on: Bool)
    /// Keeps `stations` connected and buffering (``Audio/Player/warm(_:budgetKbps:)``), replacing the set before.
    func warm(_ stations: [PlayableStation], budgetKbps: Int)
    /// 0...1, ramped by the player.
    var volume: Double { get set }
    var status: PlayerStatus { get }
    func observe(_ handler: @escaping @Sendable (PlayerStatus) -> Void) -> Player.Observation
    func observeTitles(_ handler: @escaping @Sendable (TrackTitle) -> Void) -> Player.Observation
}

extension Player: RadioPlayer {}
