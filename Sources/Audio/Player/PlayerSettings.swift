import Threads

/// Everything the player can be configured with; the defaults are what the appliance ships.
public struct PlayerSettings: Equatable, Sendable {
    /// ALSA output (`[audio] device`, buffer and period).
    public var output: AlsaOutputSettings
    /// Network: timeouts, redirects.
    public var source: StreamSourceSettings
    /// Reconnect back-off.
    public var reconnect: Backoff
    /// Re-opening a lost ALSA device (default 0.25 s doubling to 1 s for a minute, then up to 5 s).
    public var deviceRetry: Backoff
    /// Seconds of audio buffered before playback starts (default 0.25: fast tuning).
    public var prebufferSeconds: Double
    /// Seconds of audio the buffer may grow to ahead of playback (default 30: rides out jitter).
    public var maximumLeadSeconds: Double
    /// Seconds of a paused stream kept for a time-shifted resume (default 300); past this, resume is live.
    public var timeShiftSeconds: Double
    /// Seconds a start may take before it fails (default 15).
    public var startTimeout: Double
    /// Fade-in and fade-out length in seconds (default 0.03: no clicks, no audible delay).
    public var fadeSeconds: Double
    /// Initial volume, 0...1 (default 1).
    public var volume: Double
    /// HTTP Live Streaming: which variant to pick.
    public var hls: HLSSettings
    /// The integrated loudness every station is brought to, in LUFS (default -23, EBU R128's broadcast
    /// level); nil plays each station at its own level.
    public var loudnessTarget: Double?
    /// The targets that make sense: quieter is lost in a room's noise, louder leaves the limiter no headroom.
    public static let loudnessTargetRange: ClosedRange<Double> = -40 ... -10
    /// Warm stations: their buffers, and when they are dropped.
    public var warm: WarmSettings
    /// Which volume the knob turns (`[audio] mixer`): the samples', or a sound card control's, which the
    /// daemon opens and hands to the ``Player`` (`wavedial play-url` plays with the software volume).
    public var mixer: MixerSettings = .software
    /// What a device that cannot be opened or written means: a failure (the appliance), or playing on in
    /// silence until it can (the simulator without a sound card).
    public var missingDevice: MissingDevicePolicy = .fail

    public init(output: AlsaOutputSettings = AlsaOutputSettings(), source: StreamSourceSettings = StreamSourceSettings(),
                reconnect: Backoff = Backoff(),
                deviceRetry: Backoff = Backoff(initialDelay: 0.25, fastCap: 1, fastWindow: 60, maximumDelay: 5),
                prebufferSeconds: Double = 0.25,
                maximumLeadSeconds: Double = 30, timeShiftSeconds: Double = 300, startTimeout: Double = 15,
                fadeSeconds: Double = 0.03, volume: Double = 1, hls: HLSSettings = HLSSettings(),
                loudnessTarget: Double? = -23,
                warm: WarmSettings = WarmSettings()) {
        self.output = output
        self.source = source
        self.reconnect = reconnect
        self.deviceRetry = deviceRetry
        self.prebufferSeconds = prebufferSeconds
        self.maximumLeadSeconds = maximumLeadSeconds
        self.timeShiftSeconds = timeShiftSeconds
        self.startTimeout = startTimeout
        self.fadeSeconds = fadeSeconds
        self.volume = volume
        self.hls = hls
        self.loudnessTarget = loudnessTarget
        self.warm = warm
    }
}
