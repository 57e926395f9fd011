/// Where the player's audio goes (`audio_output` in `wavedial status --json`).
public enum AudioOutputRoute: Equatable, Sendable {
    /// The ALSA device of `[audio] device`, by its name.
    case device(String)
    /// Nowhere, paced in real time, as configured (`[audio] device = "null"`: a headless radio, one that only
    /// feeds other rooms).
    case configuredSilence
    /// Nowhere, paced in real time, because the device cannot be opened (no sound card) and the radio plays on
    /// without it (``MissingDevicePolicy/playSilently``); why, naming the device and ALSA's reason.
    case noDevice(reason: String)

    /// The device's name, or "none" when the audio goes nowhere.
    public var name: String {
        if case .device(let name) = self { return name }
        return "none"
    }

    /// Whether the device cannot be opened (and the audio goes nowhere for it).
    public var isNoDevice: Bool {
        if case .noDevice = self { return true }
        return false
    }

    /// Why the audio goes nowhere; nil while a device plays it.
    public var reason: String? {
        switch self {
        case .device: return nil
        case .configuredSilence: return "[audio] device = \"null\": no sound is made"
        case .noDevice(let reason): return reason
        }
    }
}

/// What the player does when its device cannot be opened or written.
public enum MissingDevicePolicy: Equatable, Sendable {
    /// A failure the LCD names ("Audio device error"), the device tried again with back-off while the stream
    /// keeps recording: the appliance, whose sound card is part of it.
    case fail
    /// Plays on into a silence paced in real time and tries the device again every few seconds
    /// (``SilenceFallbackOutput``): the simulator on a machine without a sound card still tunes, shows titles
    /// and keeps favorites, and a USB card plugged in later is used without a restart.
    case playSilently
}
