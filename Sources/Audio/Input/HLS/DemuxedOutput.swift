/// What a segment demuxer hands on: elementary audio in an encoding a decoder takes, or a title.
public enum DemuxedOutput {
    /// Audio bytes, valid only during the call.
    case audio(AudioEncoding, UnsafeRawBufferPointer)
    /// Timed metadata: the audio that follows carries this title.
    case title(String)
}

/// A segment's content a radio cannot play, in words for the failure ("HLS video only", "HLS audio AC-3").
public struct UnsupportedMedia: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
