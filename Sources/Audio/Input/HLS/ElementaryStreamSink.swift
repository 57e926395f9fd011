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
