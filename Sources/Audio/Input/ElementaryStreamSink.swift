/// The next stage of the input chain: where an input (an HTTP stream, an HLS reader) delivers a
/// station's elementary audio stream. Decorators (``SplicingSink``) pass it on; ``RingWriter`` ends
/// the chain at the station's ``ByteRing``. Called on the station's network thread only, in stream order.
public protocol ElementaryStreamSink: AnyObject {
    /// A connection's audio starts here, in `encoding`: called before its first audio, and when the
    /// encoding changes (an HLS variant switch).
    func begin(_ encoding: AudioEncoding)
    /// Audio bytes of the current connection, valid only during the call. - Returns: false to stop the
    /// input (cancelled, ring closed).
    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The audio that follows carries this title (ICY; HLS ID3 timed metadata), cleaned and bounded.
    func title(_ title: String)
    /// The bytes that follow do not continue those before (`EXT-X-DISCONTINUITY`, a segment skipped or
    /// failed, a variant switch): the decoder restarts.
    func discontinuity()
    /// The connection's audio ended (dropped, closed or cancelled).
    func end()
}
