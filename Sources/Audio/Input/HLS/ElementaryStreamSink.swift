/// Where an input delivers the elementary audio stream (what the ring receives).
///
/// Called on the input's thread (the station's network thread), in stream order.
public protocol ElementaryStreamSink: AnyObject {
    /// The audio from here on is in `encoding`: called before the first audio, and when the encoding changes.
    func begin(_ encoding: AudioEncoding)
    /// Audio bytes, valid only during the call. Returns false to stop the input (cancelled, ring closed).
    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The audio that follows does not continue the audio before (`EXT-X-DISCONTINUITY`, a segment skipped
    /// or failed, a variant switch): the decoder restarts.
    func discontinuity()
    /// The audio that follows carries this title (ID3 timed metadata), cleaned and bounded.
    func title(_ title: String)
}

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
