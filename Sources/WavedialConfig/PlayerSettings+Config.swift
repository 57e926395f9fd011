import Audio
import CurlSupport
import PrintableText
import WavedialCore

extension PlayerSettings {
    /// Reads `[audio]`.
    init(_ section: ConfigSection) {
        self.init()
        output.device = section.string("device", default: output.device)
        if output.device.isEmpty { section.report("device", "must name an ALSA PCM, e.g. \"default\" or \"hw:1,0\"") }
        prebufferSeconds = Double(section.int("prebuffer_ms", default: Int(prebufferSeconds * 1000), range: 50...10_000)) / 1000
        maximumLeadSeconds = section.double("buffer_seconds", default: maximumLeadSeconds, range: 1...600)
        timeShiftSeconds = section.double("timeshift_seconds", default: timeShiftSeconds, range: 0...7200)
        startTimeout = section.double("start_timeout_seconds", default: startTimeout, range: 1...120)
        source.connectTimeout = section.double("connect_timeout_seconds", default: source.connectTimeout, range: 1...60)
        source.stallTimeout = section.double("stall_timeout_seconds", default: source.stallTimeout, range: 1...60)
        fadeSeconds = Double(section.int("fade_ms", default: Int(fadeSeconds * 1000), range: 0...2000)) / 1000
        output.bufferSeconds = Double(section.int(
            "alsa_buffer_ms", default: Int((output.bufferSeconds * 1000).rounded()), range: 20...2000)) / 1000
        output.periodSeconds = Double(section.int(
            "alsa_period_ms", default: Int((output.periodSeconds * 1000).rounded()), range: 5...500)) / 1000
        if output.periodSeconds * 2 > output.bufferSeconds {
            section.report("alsa_period_ms", "must be at most half of alsa_buffer_ms")
        }
        source.maximumRedirects = section.int("max_redirects", default: source.maximumRedirects, range: 0...20)
        reconnect.maximumDelay = section.double("reconnect_max_seconds", default: reconnect.maximumDelay, range: 0.5...600)
        source.userAgent = section.string("user_agent", default: source.userAgent)
        let bandwidth = section.int("hls_max_bandwidth", default: hls.maximumBandwidth ?? 0, range: 0...1_000_000_000)
        hls.maximumBandwidth = bandwidth > 0 ? bandwidth : nil
        switch section.numberOrWord("loudness_target", word: "off", range: Self.loudnessTargetRange,
                                    expected: "a loudness in LUFS from -40 to -10 (e.g. -23), or \"off\"") {
        case .number(let target)?: loudnessTarget = target
        case .word?: loudnessTarget = nil
        case nil: break
        }
        mixer = Self.mixer(section, device: output.device)
        source.allowedAddresses = section.strings("allowed_addresses", default: []).compactMap { text in
            guard let network = IPNetwork(text) else {
                section.report("allowed_addresses", "must hold addresses or ranges such as \"127.0.0.1\" or \"10.0.0.0/8\", not \"\(text)\"")
                return nil
            }
            return network
        }
    }

    /// `mixer`, `mixer_control` and `mixer_device`: whether the samples' volume or a card's control turns.
    private static func mixer(_ section: ConfigSection, device: String) -> MixerSettings {
        let control = section.optionalString("mixer_control")
        let mixerDevice = section.optionalString("mixer_device")
        guard section.choice("mixer", default: MixerKind.software) == .hardware else { return .software }
        // ALSA's element names are at most 44 bytes; a control name is printable text.
        guard let control, !control.isEmpty, control.utf8.count <= 48, StationText.isPrintable(control) else {
            section.report("mixer_control", "must name the card's volume control (as 'amixer scontrols' lists it, e.g. \"Digital\" or \"PCM\") when mixer = \"hardware\"")
            return .software
        }
        if let mixerDevice, mixerDevice.isEmpty || mixerDevice.utf8.count > 256 || !StationText.isPrintable(mixerDevice) {
            section.report("mixer_device", "must name an ALSA mixer device such as \"hw:0\" or \"hw:CARD=sndrpihifiberry\"")
            return .software
        }
        return .hardware(control: control, device: mixerDevice ?? MixerSettings.mixerDevice(forPCM: device))
    }

    private enum MixerKind: String, CaseIterable {
        case software, hardware
    }
}
