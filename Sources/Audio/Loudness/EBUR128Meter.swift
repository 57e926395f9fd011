import CEbur128

/// EBU R128 loudness of decoded PCM (ITU-R BS.1770 K-weighting, 400 ms blocks, absolute and relative
/// gates), measured by libebur128: the integrated loudness of everything added so far.
///
/// Integrated loudness is kept in libebur128's histogram (`EBUR128_MODE_HISTOGRAM`): constant memory and
/// constant cost per query however long a station plays, where its default keeps every block. A mono
/// stream counts as dual mono (`EBUR128_DUAL_MONO`), as it sounds on two speakers. Not thread-safe: the
/// audio thread owns it.
final class EBUR128Meter {
    /// The formats it measures: what decoders produce (libebur128's filters need a rate it can design for).
    static let sampleRates = 8000...384_000
    static let channelCounts = 1...8

    private(set) var format: PCMFormat
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// Nil for a format outside ``sampleRates`` and ``channelCounts``, or when `ebur128_init` fails (no memory).
    init?(format: PCMFormat) {
        guard Self.sampleRates.contains(format.sampleRate), Self.channelCounts.contains(format.channels),
              let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate),
                                       Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue))
        else { return nil }
        self.format = format
        self.state = state
        if format.channels == 1 { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
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
        let result = ebur128_change_parameters(state, UInt32(format.channels), UInt(format.sampleRate))
        guard result == Int32(EBUR128_SUCCESS.rawValue) || result == Int32(EBUR128_ERROR_NO_CHANGE.rawValue) else {
            // The state is invalid after a failed allocation.
            ebur128_destroy(&self.state)
            return false
        }
        self.format = format
        if format.channels == 1 { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
        return true
    }

    /// Adds interleaved samples in ``format`` (a partial last frame is left out) (`ebur128_add_frames_short`).
    func add(_ samples: UnsafeBufferPointer<Int16>) {
        guard let state, let base = samples.baseAddress else { return }
        let frames = samples.count / format.channels
        guard frames > 0 else { return }
        ebur128_add_frames_short(state, base, frames)
    }

    /// Integrated loudness in LUFS of everything added (`ebur128_loudness_global`); -infinity until a block
    /// passes the gates (silence, or less than 400 ms of audio).
    var integrated: Double {
        var value = -Double.infinity
        guard let state, ebur128_loudness_global(state, &value) == Int32(EBUR128_SUCCESS.rawValue) else { return -.infinity }
        return value
    }
}
