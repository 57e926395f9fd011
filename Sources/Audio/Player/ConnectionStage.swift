/// What the player is doing to reach a station that does not play yet: the words under "Connecting" on
/// the LCD and `connecting_detail` in `wavedial status --json`.
public enum ConnectionStage: Equatable, Sendable, CustomStringConvertible {
    /// Looking the stream's host name up.
    case resolving
    /// Opening the connection (the name resolved, or the URL names an address).
    case connecting
    /// The server answered; its audio has not come yet (headers, a playlist, redirects, HLS segments).
    case waitingForAudio
    /// An attempt failed and the next is coming: the failure that made it.
    case retrying(PlaybackFailure)

    /// "Resolving host…", "Connecting…", "Waiting for audio…", "Retrying (HTTP 503)…": our own words
    /// and a number, nothing a station sent.
    public var description: String {
        switch self {
        case .resolving: return "Resolving host…"
        case .connecting: return "Connecting…"
        case .waitingForAudio: return "Waiting for audio…"
        case .retrying(let failure):
            let reason = failure.httpStatus.map { "HTTP \($0)" } ?? failure.code.description
            return "Retrying (\(reason))…"
        }
    }
}
