import CMpg123

/// MPEG audio (MP3, MP2) decoding with libmpg123 in feed mode, always to signed 16-bit samples.
///
/// The ``AudioDecoder`` of ``AudioEncoding/mpeg``. Garbage between frames is skipped (libmpg123
/// resyncs without limit). Not thread-safe: owned by one thread.
public final class Mpg123Decoder: AudioDecoder {
    private let handle: OpaquePointer

    /// Creates a handle (`mpg123_new`) set for radio: quiet, unlimited resync, 16-bit output at every rate.
    /// - Throws: ``Mpg123Error`` when libmpg123 cannot create or configure the handle.
    public init() throws {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else { throw Mpg123Error(code: error, function: "mpg123_new") }
        self.handle = handle
        try check(mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0), "mpg123_param")
        // A radio stream may carry any amount of junk (a torn connection, ID3 in the middle): always look further.
        try check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0), "mpg123_param")
        try check(mpg123_format_none(handle), "mpg123_format_none")
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123_rates(&rates, &rateCount)
        for index in 0..<rateCount {
            try check(mpg123_format(handle, rates![index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                                    Int32(MPG123_ENC_SIGNED_16.rawValue)), "mpg123_format")
        }
        try restart()
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Forgets all fed bytes and starts a fresh stream (`mpg123_open_feed`), e.g. after a station switch.
    /// - Throws: ``Mpg123Error`` from `mpg123_open_feed`.
    public func restart() throws {
        mpg123_close(handle)
        try check(mpg123_open_feed(handle), "mpg123_open_feed")
    }

    /// Hands compressed bytes to the decoder (`mpg123_feed`).
    /// - Throws: ``Mpg123Error`` when libmpg123 cannot take them (out of memory).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try check(mpg123_feed(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count), "mpg123_feed")
    }

    /// Decodes into `buffer` (`mpg123_read`).
    ///
    /// A decoding error (a stream libmpg123 cannot follow) restarts the decoder and reports
    /// ``AudioDecoderOutput/needMore``: the stream continues with the next bytes fed, as on a radio.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> AudioDecoderOutput {
        var done = 0
        let result = mpg123_read(handle, buffer.baseAddress, buffer.count, &done)
        switch result {
        case Int32(MPG123_OK.rawValue):
            return .pcm(bytes: done)
        case Int32(MPG123_NEED_MORE.rawValue):
            return done > 0 ? .pcm(bytes: done) : .needMore
        case Int32(MPG123_NEW_FORMAT.rawValue):
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            mpg123_getformat(handle, &rate, &channels, &encoding)
            return .newFormat(PCMFormat(sampleRate: rate, channels: Int(channels)))
        default:
            try? restart()
            return .needMore
        }
    }

    /// The current frame's layer ("MP3", "MP2", "MP1") and bitrate (`mpg123_info2`; a VBR stream's
    /// average is not known from one frame), nil before the first frame.
    public var streamInfo: AudioStreamInfo? {
        var info = mpg123_frameinfo2()
        guard mpg123_info2(handle, &info) == Int32(MPG123_OK.rawValue), info.layer > 0 else { return nil }
        return AudioStreamInfo(codec: "MP\(info.layer)", bitrate: Int(info.bitrate))
    }

    private func check(_ result: Int32, _ function: String) throws {
        guard result == Int32(MPG123_OK.rawValue) else { throw Mpg123Error(code: result, function: function) }
    }
}
