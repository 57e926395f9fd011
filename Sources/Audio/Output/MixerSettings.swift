/// Which volume the radio turns (`[audio] mixer`, `mixer_control`, `mixer_device`).
public enum MixerSettings: Equatable, Sendable {
    /// The player scales the samples (``Volume``, squared): the default, for any device.
    case software
    /// A sound card's own playback control, through alsa-lib's simple mixer (``AlsaMixer``); the samples
    /// stay at unity gain. `control` is a simple-mixer name as `amixer` shows it ("Digital", or "PCM,1"
    /// for index 1), `device` the mixer device ("hw:0", "hw:CARD=sndrpihifiberry", "default").
    case hardware(control: String, device: String)

    /// The mixer device of the card a PCM name plays on: `hw:N` or `hw:CARD=NAME` when the name says
    /// its card (`hw:1,0`, `plughw:CARD=Headphones,DEV=0`, `sysdefault:CARD=x`), else `default`.
    public static func mixerDevice(forPCM pcm: String) -> String {
        let arguments = pcm.split { $0 == ":" || $0 == "," || $0 == " " }
        if let card = arguments.first(where: { $0.hasPrefix("CARD=") })?.dropFirst(5).filter({ $0 != "\"" }), !card.isEmpty {
            return "hw:CARD=" + card
        }
        for prefix in ["hw:", "plughw:"] where pcm.hasPrefix(prefix) {
            let card = pcm.dropFirst(prefix.count).prefix { $0 != "," }
            if !card.isEmpty { return "hw:" + card }
        }
        return "default"
    }

    /// The hardware control, opened (``AlsaMixer``); nil for the software volume.
    /// - Throws: ``AlsaMixer/Failure`` naming the card's volume controls when `control` is not one of them.
    public func open() throws -> AlsaMixer? {
        guard case let .hardware(control, device) = self else { return nil }
        return try AlsaMixer(device: device, control: control)
    }
}
