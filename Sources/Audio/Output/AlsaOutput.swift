import CAlsa
import Glibc

/// Settings of the ALSA output.
public struct AlsaOutputSettings: Equatable, Sendable {
    /// ALSA PCM name (`[audio] device`). Default `"default"`; use a `plug` device so any stream rate plays.
    public var device: String
    /// Requested ALSA buffer length in seconds (default 0.2: headroom for a busy Pi, little latency).
    public var bufferSeconds: Double
    /// Requested period length in seconds (default 0.05).
    public var periodSeconds: Double

    public init(device: String = "default", bufferSeconds: Double = 0.2, periodSeconds: Double = 0.05) {
        self.device = device
        self.bufferSeconds = bufferSeconds
        self.periodSeconds = periodSeconds
    }
}

/// One ALSA playback PCM (`snd_pcm_open`), written in blocking interleaved S16_LE mode.
///
/// Owned by the audio thread: every method blocks or touches the PCM and must be called there.
/// Underruns (`-EPIPE`) and suspends (`-ESTRPIPE`) are recovered in ``recover(from:)``; other
/// errors throw ``AlsaError``. ``close()`` releases the device; `deinit` closes it too.
public final class AlsaOutput: AudioOutput {
    public let settings: AlsaOutputSettings
    private var pcm: OpaquePointer?
    /// The format the PCM is configured for, nil while closed.
    public private(set) var format: PCMFormat?
    /// Frames handed to ALSA since ``open(format:)``.
    public private(set) var framesWritten: Int64 = 0
    /// Underruns and suspends recovered since creation.
    public private(set) var recoveries = 0

    public init(settings: AlsaOutputSettings) {
        self.settings = settings
    }

    deinit { close() }

    /// Opens the device (`snd_pcm_open`) for `format`, or reconfigures it when the format changed.
    /// - Throws: ``AlsaError`` when the device is missing or refuses the format or sizes.
    public func open(format: PCMFormat) throws {
        if pcm != nil && self.format == format { return }
        close()
        var handle: OpaquePointer?
        try check(snd_pcm_open(&handle, settings.device, SND_PCM_STREAM_PLAYBACK, 0), "snd_pcm_open")
        pcm = handle
        do {
            try configure(format)
        } catch {
            close()
            throw error
        }
        self.format = format
        framesWritten = 0
    }

    private func configure(_ format: PCMFormat) throws {
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access")
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "snd_pcm_hw_params_set_format")
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(format.channels)), "snd_pcm_hw_params_set_channels")
        var rate = UInt32(format.sampleRate)
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, nil), "snd_pcm_hw_params_set_rate_near")
        guard Int(rate) == format.sampleRate else {
            throw AlsaError(code: -EINVAL, function: "snd_pcm_hw_params_set_rate_near(\(format.sampleRate) Hz → \(rate) Hz)")
        }
        var bufferTime = UInt32(settings.bufferSeconds * 1_000_000)
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, nil), "snd_pcm_hw_params_set_buffer_time_near")
        var periodTime = UInt32(settings.periodSeconds * 1_000_000)
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, nil), "snd_pcm_hw_params_set_period_time_near")
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")
        var periodSize: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size(hw, &periodSize, nil)

        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        // Start after one period instead of a full buffer: first sound sooner, the ring holds the headroom.
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, periodSize), "snd_pcm_sw_params_set_start_threshold")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")
    }

    /// Writes interleaved frames (`snd_pcm_writei`), blocking until ALSA took them all.
    /// - Throws: ``AlsaError`` on an error ``recover(from:)`` cannot handle; nothing when closed.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let pcm, let format else { return }
        var offset = 0
        let total = samples.count / format.channels
        while offset < total {
            let pointer = samples.baseAddress! + offset * format.channels
            let result = snd_pcm_writei(pcm, pointer, snd_pcm_uframes_t(total - offset))
            if result >= 0 {
                offset += Int(result)
                framesWritten += Int64(result)
            } else {
                try recover(from: Int32(result))
            }
        }
    }

    /// Handles a negative return of a write: `-EINTR` retries, `-EPIPE` (underrun) re-prepares,
    /// `-ESTRPIPE` (suspend) resumes or re-prepares, a dropped PCM (`-EBADFD`) re-prepares (`snd_pcm_prepare`,
    /// `snd_pcm_resume`).
    /// - Throws: ``AlsaError`` for any other code.
    func recover(from code: Int32) throws {
        switch -code {
        case EINTR, EAGAIN:
            return
        case EPIPE, EBADFD:
            recoveries += 1
            try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
        case ESTRPIPE:
            recoveries += 1
            var result = snd_pcm_resume(pcm)
            while result == -EAGAIN {
                usleep(10_000)
                result = snd_pcm_resume(pcm)
            }
            if result < 0 { try check(snd_pcm_prepare(pcm), "snd_pcm_prepare") }
        default:
            throw AlsaError(code: code, function: "snd_pcm_writei")
        }
    }

    /// Frames written but not yet played (`snd_pcm_delay`); 0 when closed or not running.
    public var delayFrames: Int {
        guard let pcm else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) == 0 ? max(Int(delay), 0) : 0
    }

    /// Plays out what ALSA holds (`snd_pcm_drain`), then stops.
    public func drain() {
        guard let pcm else { return }
        snd_pcm_drain(pcm)
        snd_pcm_prepare(pcm)
    }

    /// Releases the device (`snd_pcm_close`); later writes are ignored until ``open(format:)``.
    public func close() {
        guard let pcm else { return }
        snd_pcm_close(pcm)
        self.pcm = nil
        format = nil
    }

    private func check(_ result: Int32, _ function: String) throws {
        guard result >= 0 else { throw AlsaError(code: result, function: function) }
    }
}
