/// How an ``HLSReader`` run ended.
public enum HLSOutcome: Equatable, Sendable {
    /// ``HLSReader/cancel()`` was called, or the sink refused audio.
    case cancelled
    /// The station's HLS stream is nothing a radio can play ("HLS video only", "HLS SAMPLE-AES", …): do not retry.
    case unsupported(String)
    /// The stream failed or stopped (a stall is ``PlaybackFailure/Code/timedOut``; a playlist that ended,
    /// ``PlaybackFailure/Code/streamEnded``); `deliveredAudio` says whether any audio came first. Reconnect
    /// with a new reader, which starts at the live edge again.
    case ended(PlaybackFailure, deliveredAudio: Bool)
}
