/// The next stage of the input chain: where an input (an HTTP stream, an HLS reader) delivers a
/// station's elementary audio stream. Decorators (``SplicingSink``) pass it on; ``RingWriter`` ends
/// the chain at the station's ``ByteRing``. Called on the station's network thread only.
protocol ElementaryStreamSink: AnyObject {
    /// A connection's audio starts here, in `encoding`.
    func begin(_ encoding: AudioEncoding)
    /// Audio bytes of the current connection. - Returns: false to stop the input (cancelled, ring closed).
    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The audio that follows carries this title (ICY, HLS ID3).
    func title(_ title: String)
    /// The bytes that follow do not continue those before (an HLS discontinuity, a skipped segment).
    func discontinuity()
    /// The connection's audio ended (dropped, closed or cancelled).
    func end()
}
