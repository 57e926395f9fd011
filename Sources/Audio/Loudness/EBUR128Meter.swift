import CEbur128

/// EBU R128 loudness of decoded PCM (ITU-R BS.1770 K-weighting, 400 ms blocks, absolute and relative
/// gates), measured by libebur128: the integrated loudness of everything added so far.
///
/// A meter made with a ``frameStride`` of 2 hears every other frame, as a stream at half the rate: BS.1770's
/// loudness is a mean square, which the frames kept hold as the whole does, and the upper half of the band
/// folds, mirrored, into the lower, still on the K-weighting's +4 dB shelf above 1.5 kHz but for the band's
/// top 1.5 kHz, where programme has little. It read 0.04 LU from the whole on programme and 0.18 low on white
/// noise (`EBUR128MeterTests`), for half the cost: libebur128's filter runs sample by sample in double
/// precision, the stage's largest cost.
///
/// Integrated loudness is kept in libebur128's histogram (`EBUR128_MODE_HISTOGRAM`): constant memory and
/// constant cost per query however long a station plays, where its default keeps every block. A mono
/// stream counts as dual mono (`EBUR128_DUAL_MONO`), as it sounds on two speakers. Not thread-safe: the
/// audio thread owns it.
final class EBUR128Meter {
    /// The formats it measures: what decoders produce (libebur128's filters need a rate it can design for).
    static let sampleRates = 8000...384_000
    static let channelCounts = 1...8

    /// The lowest rate a meter with a ``frameStride`` above 1 hears every other frame of: half of it keeps the
    /// band of speech and music (16 kHz), where talk stations' 22.05 kHz is heard whole.
    static let stridedSampleRates = 32000...

    private(set) var format: PCMFormat
    /// 1: every frame is measured; 2: every other frame, for a format in ``stridedSampleRates``.
    let frameStride: Int
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Frames to skip at the start of the next ``add(_:)``: where the stride left off in the last one.
    private var skipFrames = 0
    private var kept: [Int16] = []

    /// Nil for a format outside ``sampleRates`` and ``channelCounts``, or when `ebur128_init` fails (no memory).
    /// - Parameter frameStride: 2 to hear every other frame (at rates in ``stridedSampleRates``; below, every frame).
    init?(format: PCMFormat, frameStride: Int = 1) {
        guard Self.sampleRates.contains(format.sampleRate), Self.channelCounts.contains(format.channels) else { return nil }
        self.frameStride = frameStride
        self.format = format
        guard let state = ebur128_init(UInt32(format.channels), UInt(Self.meteredRate(format, frameStride)),
                                       Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue))
        else { return nil }
        self.state = state
        if format.channels == 1 { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
    }

    /// The rate libebur128 measures `format` at: halved when every other frame is heard.
    private static func meteredRate(_ format: PCMFormat, _ frameStride: Int) -> Int {
        effectiveStride(format, frameStride) == 2 ? format.sampleRate / 2 : format.sampleRate
    }

    private static func effectiveStride(_ format: PCMFormat, _ frameStride: Int) -> Int {
        frameStride == 2 && stridedSampleRates.contains(format.sampleRate) ? 2 : 1
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Measures `format` from now on, keeping what was measured (`ebur128_change_parameters`; the block
    /// under way is lost). - Returns: false when it cannot (a format it does not measure, no memory): the
    /// meter then measures nothing more.
    func change(to format: PCMFormat) -> Bool {
        guard let state else { return false }
        guard format != self.format else { return true }
        guard Self.sampleRates.contains(format.sampleRate), Self.channelCounts.contains(format.channels) else { return false }
        let result = ebur128_change_parameters(state, UInt32(format.channels), UInt(Self.meteredRate(format, frameStride)))
        guard result == Int32(EBUR128_SUCCESS.rawValue) || result == Int32(EBUR128_ERROR_NO_CHANGE.rawValue) else {
            // The state is invalid after a failed allocation.
            ebur128_destroy(&self.state)
            return false
        }
        self.format = format
        skipFrames = 0
        if format.channels == 1 { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
        return true
    }

    /// Adds interleaved samples in ``format`` (a partial last frame is left out) (`ebur128_add_frames_short`);
    /// with a stride of 2, every other frame, counted across calls.
    func add(_ samples: UnsafeBufferPointer<Int16>) {
        guard let state, let base = samples.baseAddress else { return }
        let channels = format.channels
        let frames = samples.count / channels
        guard frames > 0 else { return }
        guard Self.effectiveStride(format, frameStride) == 2 else {
            ebur128_add_frames_short(state, base, frames)
            return
        }
        let first = min(skipFrames, frames)
        let keptFrames = (frames - first + 1) / 2
        skipFrames = (first + keptFrames * 2) - frames
        guard keptFrames > 0 else { return }
        if kept.count < keptFrames * channels { kept = [Int16](repeating: 0, count: keptFrames * channels) }
        kept.withUnsafeMutableBufferPointer { kept in
            for frame in 0..<keptFrames {
                let source = (first + frame * 2) * channels
                for channel in 0..<channels { kept[frame * channels + channel] = samples[source + channel] }
            }
            ebur128_add_frames_short(state, kept.baseAddress!, keptFrames)
        }
    }

    /// Integrated loudness in LUFS of everything added (`ebur128_loudness_global`); -infinity until a block
    /// passes the gates (silence, or less than 400 ms of audio).
    var integrated: Double {
        var value = -Double.infinity
        guard let state, ebur128_loudness_global(state, &value) == Int32(EBUR128_SUCCESS.rawValue) else { return -.infinity }
        return value
    }
}
