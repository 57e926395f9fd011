import Audio

/// The player as the controller drives it: the seam between the appliance's logic and
/// the audio engine (`Audio.Player`), so the controller's rules can be tested alone.
public protocol RadioPlayer: AnyObject {
    func play(_ station: PlayableStation)
    func pause()
    func resume()
    func stop()
    /// Keeps `stations` connected and buffering (``Audio/Player/warm(_:budgetKbps:)``), replacing the set before.
    func warm(_ stations: [PlayableStation], budgetKbps: Int)
    /// 0...1, ramped by the player.
    var volume: Double { get set }
    var status: PlayerStatus { get }
    func observe(_ handler: @escaping (PlayerStatus) -> Void) -> Player.Observation
    func observeTitles(_ handler: @escaping (TrackTitle) -> Void) -> Player.Observation
}

extension Player: RadioPlayer {}
