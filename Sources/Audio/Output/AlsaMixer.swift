import CAlsa
import PrintableText

/// One playback volume control of a sound card (`snd_mixer_open`, `snd_mixer_attach`,
/// `snd_mixer_selem_register`, `snd_mixer_load`, `snd_mixer_find_selem`), set in dB along
/// ``MixerVolumeCurve``.
///
/// Not thread-safe: the owner serialises calls (the player calls it under its lock). ``close()`` releases
/// the handle; `deinit` closes it too.
public final class AlsaMixer {
    /// Why a control cannot be used; the words name the card's volume controls.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public enum Code: Sendable, Equatable {
            /// The mixer device does not open (no such card, no permission).
            case cannotOpen
            /// The card has no control of that name, or the control has no playback volume.
            case noSuchControl
            /// The control has a volume but alsa-lib knows no dB scale for it.
            case noDecibelScale
        }

        public let code: Code
        public let description: String
        /// The card's controls that have a playback volume (at most 64, cleaned for a terminal).
        public let volumeControls: [String]
    }

    /// The mixer device (`hw:0`, `default`).
    public let device: String
    /// The control's name and index, as configured.
    public let control: String
    /// The control's playback range in dB (`snd_mixer_selem_get_playback_dB_range`).
    public let range: ClosedRange<Double>
    /// Whether the control has a playback switch, which 0 % turns off.
    public let hasSwitch: Bool
    private var handle: OpaquePointer?
    private let element: OpaquePointer

    /// Opens `control` ("Name" or "Name,index") on the mixer `device`.
    /// - Throws: ``Failure``: the device does not open, the control is missing or has no playback volume
    ///   (naming the controls the card has), or it has no dB scale.
    public init(device: String, control: String) throws {
        self.device = device
        self.control = control
        var handle: OpaquePointer?
        func fail(_ code: Failure.Code, _ words: String, controls: [String] = []) -> Failure {
            if handle != nil { snd_mixer_close(handle) }
            return Failure(code: code, description: words, volumeControls: controls)
        }
        var result = snd_mixer_open(&handle, 0)
        if result >= 0 { result = snd_mixer_attach(handle, device) }
        if result >= 0 { result = snd_mixer_selem_register(handle, nil, nil) }
        if result >= 0 { result = snd_mixer_load(handle) }
        guard result >= 0, let handle else {
            throw fail(.cannotOpen, "mixer device '\(device)' does not open: \(AlsaError(code: result, function: "snd_mixer_attach"))")
        }
        let (name, index) = Self.parse(control)
        var id: OpaquePointer?
        guard snd_mixer_selem_id_malloc(&id) >= 0 else { throw fail(.cannotOpen, "snd_mixer_selem_id_malloc failed") }
        defer { snd_mixer_selem_id_free(id) }
        snd_mixer_selem_id_set_name(id, name)
        snd_mixer_selem_id_set_index(id, index)
        let controls = Self.volumeControls(handle)
        guard let element = snd_mixer_find_selem(handle, id), Self.hasVolume(element) else {
            let list = controls.isEmpty ? "none" : controls.map { "\"\($0)\"" }.joined(separator: ", ")
            throw fail(.noSuchControl, "mixer control '\(StationText.printable(control))' has no playback volume on '\(device)';"
                       + " its volume controls: \(list)", controls: controls)
        }
        var low = 0
        var high = 0
        guard snd_mixer_selem_get_playback_dB_range(element, &low, &high) >= 0, low < high else {
            throw fail(.noDecibelScale, "mixer control '\(StationText.printable(control))' on '\(device)' has no dB scale",
                       controls: controls)
        }
        self.handle = handle
        self.element = element
        range = Double(low) / 100 ... Double(high) / 100
        hasSwitch = snd_mixer_selem_has_playback_switch(element) != 0
    }

    deinit { close() }

    /// Sets the control for `level` (0...1) along ``MixerVolumeCurve``: 0 turns the switch off (when the
    /// control has one) and the gain to its minimum (`snd_mixer_selem_set_playback_dB_all`,
    /// `snd_mixer_selem_set_playback_switch_all`).
    /// - Throws: ``AlsaError`` when the card refuses (it went away).
    public func setVolume(_ level: Double) throws {
        guard handle != nil else { return }
        let decibels = MixerVolumeCurve.decibels(forLevel: level, range: range) ?? range.lowerBound
        // Centi-dB within the control's own range: the conversion cannot overflow.
        let centi = Int((min(max(decibels, range.lowerBound), range.upperBound) * 100).rounded())
        try check(snd_mixer_selem_set_playback_dB_all(element, centi, 0), "snd_mixer_selem_set_playback_dB_all")
        if hasSwitch {
            let on: Int32 = MixerVolumeCurve.decibels(forLevel: level, range: range) == nil ? 0 : 1
            try check(snd_mixer_selem_set_playback_switch_all(element, on), "snd_mixer_selem_set_playback_switch_all")
        }
    }

    /// The control's gain now, in dB, on its first channel (`snd_mixer_selem_get_playback_dB`).
    public var decibels: Double? {
        guard handle != nil else { return nil }
        var value = 0
        guard snd_mixer_selem_get_playback_dB(element, SND_MIXER_SCHN_FRONT_LEFT, &value) >= 0 else { return nil }
        return Double(value) / 100
    }

    /// Releases the mixer (`snd_mixer_close`); later calls do nothing.
    public func close() {
        guard let handle else { return }
        snd_mixer_close(handle)
        self.handle = nil
    }

    /// "PCM,1" is the control "PCM" with index 1, as `amixer` writes it; a name alone has index 0.
    static func parse(_ control: String) -> (name: String, index: UInt32) {
        if let comma = control.lastIndex(of: ","), let index = UInt32(control[control.index(after: comma)...]) {
            return (String(control[..<comma]), index)
        }
        return (control, 0)
    }

    private static func hasVolume(_ element: OpaquePointer) -> Bool {
        snd_mixer_selem_has_playback_volume(element) != 0 || snd_mixer_selem_has_common_volume(element) != 0
    }

    /// The names (with ",index" past 0) of the card's controls that have a playback volume; a card's
    /// driver names them, so they are cleaned and bounded before anyone reads them.
    private static func volumeControls(_ handle: OpaquePointer) -> [String] {
        var names: [String] = []
        var element = snd_mixer_first_elem(handle)
        while let current = element, names.count < 64 {
            if hasVolume(current), let name = snd_mixer_selem_get_name(current) {
                let index = snd_mixer_selem_get_index(current)
                let text = StationText.printable(String(String(cString: name).prefix(64)))
                names.append(index == 0 ? text : "\(text),\(index)")
            }
            element = snd_mixer_elem_next(current)
        }
        return names
    }

    private func check(_ result: Int32, _ function: String) throws {
        guard result >= 0 else { throw AlsaError(code: result, function: function) }
    }
}
