/// What a segment demuxer hands on: elementary audio in an encoding a decoder takes, or a title.
public enum DemuxedOutput {
    /// Audio bytes, valid only during the call.
    case audio(AudioEncoding, UnsafeRawBufferPointer)
    /// Timed metadata: the audio that follows carries this title.
    case title(String)
}
