import CurlSupport

/// Where playback is, as the LCD and the CLI show it.
public enum PlayerState: Equatable, Sendable, CustomStringConvertible {
    /// Nothing to play.
    case idle
    /// Opening the stream (resolving playlists, connecting).
    case connecting
    /// Connected, filling the buffer (at start or after the buffer ran dry).
    case buffering
    /// Audio is reaching the device.
    case playing
    /// Paused by the listener; the stream keeps recording for a time-shifted resume.
    case paused
    /// The station cannot be played; `willRetry` when the player keeps trying by itself
    /// (a stream that played before and dropped, a station not reached for want of a network, or a
    /// lost audio device).
    case failed(PlaybackFailure, willRetry: Bool)

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .connecting: return "connecting"
        case .buffering: return "buffering"
        case .playing: return "playing"
        case .paused: return "paused"
        case .failed(let failure, let willRetry): return "failed: \(failure.code)\(willRetry ? " (retrying)" : "")"
        }
    }
}

/// A station as the player needs it.
public struct PlayableStation: Equatable, Hashable, Sendable {
    /// The catalog's identifier (Radio Browser's stationuuid), passed through to observers.
    public var id: String
    public var name: String
    /// The stream or playlist URL.
    public var url: String
    /// Where its stream, redirects, playlist entries and HLS segments may connect: ``AddressPolicy/catalog``
    /// for a catalog station, ``AddressPolicy/userTyped`` for a URL the user gave; the settings'
    /// ``StreamSourceSettings/allowedAddresses`` are added to it.
    public var addressPolicy: AddressPolicy

    /// - Parameter addressPolicy: by default the catalog's, the strictest.
    public init(id: String, name: String, url: String, addressPolicy: AddressPolicy = .catalog) {
        self.id = id
        self.name = name
        self.url = url
        self.addressPolicy = addressPolicy
    }
}

/// What observers are told: the state, the station and the title the listener hears now.
public struct PlayerStatus: Equatable, Sendable {
    public var state: PlayerState
    public var station: PlayableStation?
    /// The current ICY title, published when the audio reaches it.
    public var title: String?
    /// The station's own name (`icy-name`), once connected.
    public var streamName: String?
    /// The stream dropped and the player is connecting again (while the buffer lasts, it still plays).
    public var isReconnecting: Bool
    /// While ``state`` is ``PlayerState/connecting``: what the player is doing (nil when not known yet).
    public var connectionStage: ConnectionStage?
    /// Where the audio goes: the device, or nowhere (and why).
    public var output: AudioOutputRoute

    public init(state: PlayerState, station: PlayableStation?, title: String?, streamName: String?,
                isReconnecting: Bool = false, connectionStage: ConnectionStage? = nil,
                output: AudioOutputRoute = .device("default")) {
        self.state = state
        self.station = station
        self.title = title
        self.streamName = streamName
        self.isReconnecting = isReconnecting
        self.connectionStage = connectionStage
        self.output = output
    }
}

/// A title the listener started hearing, for the song history.
public struct TrackTitle: Equatable, Sendable {
    /// When it was heard: wall-clock seconds since 1970 (`Date(timeIntervalSince1970:)`).
    public var unixTime: Double
    public var station: PlayableStation
    public var title: String

    public init(unixTime: Double, station: PlayableStation, title: String) {
        self.unixTime = unixTime
        self.station = station
        self.title = title
    }
}
