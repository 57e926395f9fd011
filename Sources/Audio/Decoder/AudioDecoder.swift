/// The elementary audio byte stream a connection carries into the ring, as sniffed from its first
/// bytes (``StreamFormat``); it picks the ``AudioDecoder`` for the bytes that follow.
public enum AudioEncoding: String, Equatable, Hashable, Sendable, CaseIterable {
    /// MPEG audio frames (MP3, MP2, MP1): ``Mpg123Decoder``.
    case mpeg
    /// AAC in ADTS frames (AAC-LC, HE-AAC v1/v2), also what HLS segments are demuxed to.
    case adts
    /// An Ogg bitstream: Opus, Vorbis or FLAC, possibly chained (a new logical stream at every source reconnect).
    case ogg
    /// Native FLAC (`fLaC`, metadata blocks, frames).
    case flac

    /// The name listeners know the format by, for messages ("MP3", "AAC", "Ogg", "FLAC").
    public var displayName: String {
        switch self {
        case .mpeg: return "MP3"
        case .adts: return "AAC"
        case .ogg: return "Ogg"
        case .flac: return "FLAC"
        }
    }
}

/// One step of decoding.
public enum AudioDecoderOutput: Equatable, Sendable {
    /// `bytes` bytes of PCM (interleaved S16 in the current ``PCMFormat``) were written to the buffer;
    /// may be 0 with nothing else to say.
    case pcm(bytes: Int)
    /// The bytes fed so far are used up: feed more.
    case needMore
    /// The PCM that follows has this format; reconfigure the output before writing it.
    case newFormat(PCMFormat)
    /// The audio that follows carries this title (Vorbis comments, OpusTags, FLAC's VORBIS_COMMENT):
    /// in-band metadata, as ICY titles are out of band.
    case title(String)
}

/// What the decoder knows of the stream it is decoding.
public struct AudioStreamInfo: Equatable, Sendable {
    /// "MP3", "MP2", "AAC", "HE-AAC", "HE-AACv2", "Opus", "Vorbis", "FLAC".
    public var codec: String
    /// kbit/s: the frame's or the stream's nominal rate, else measured from bytes and samples; 0 when not known yet.
    public var bitrate: Int

    public init(codec: String, bitrate: Int) {
        self.codec = codec
        self.bitrate = bitrate
    }
}

/// A decoder of one ``AudioEncoding`` in push mode: compressed bytes go in with ``feed(_:)`` as they
/// come from the ring, interleaved signed 16-bit PCM comes out with ``read(into:)``.
///
/// Garbage between frames is skipped (the decoder resyncs); a stream it cannot follow restarts it and
/// reads report ``AudioDecoderOutput/needMore``, as on a radio. A change of rate or channel count
/// mid-stream is reported as ``AudioDecoderOutput/newFormat(_:)`` before the PCM in the new format.
/// Not thread-safe: owned by one thread (the audio thread, or a probe's caller).
public protocol AudioDecoder: AnyObject {
    /// Forgets all fed bytes and decoder state: the next bytes start a new stream (a station switch,
    /// a connection boundary, the time-shift jumping to live).
    func restart() throws
    /// Hands compressed bytes to the decoder.
    /// - Throws: when the decoder cannot take them (out of memory).
    func feed(_ bytes: UnsafeRawBufferPointer) throws
    /// Decodes into `buffer`, which holds at least ``AudioDecoders/minimumReadBytes`` bytes.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> AudioDecoderOutput
    /// The codec and bitrate, nil before the first frame decoded.
    var streamInfo: AudioStreamInfo? { get }
}

/// Makes the decoder for an encoding.
public enum AudioDecoders {
    /// The smallest buffer ``AudioDecoder/read(into:)`` is given: a whole frame of the largest
    /// codec frame at 8 channels (AAC: 2048 samples with SBR × 8 × 2 bytes; Vorbis 4096-sample blocks × 2 ch).
    public static let minimumReadBytes = 65536

    /// A fresh decoder for `encoding`.
    /// - Throws: when the codec library cannot create a decoder.
    public static func make(for encoding: AudioEncoding) throws -> AudioDecoder {
        switch encoding {
        case .mpeg: return try Mpg123Decoder()
        case .adts: return try AACDecoder()
        case .ogg: return OggDecoder()
        case .flac: return try FLACDecoder()
        }
    }
}
