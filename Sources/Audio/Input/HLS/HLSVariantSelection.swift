/// One way to the audio of a master playlist: the media playlist to follow.
public struct HLSAudioChoice: Equatable, Sendable {
    /// The media playlist's URL (a variant's, or an audio rendition's).
    public var playlistURL: String
    /// The variant's `BANDWIDTH` (a rendition's is not known: the variant's that names its group).
    public var bandwidth: Int
    /// Whether the stream carries audio alone (an audio-only variant or an audio rendition).
    public var audioOnly: Bool

    public init(playlistURL: String, bandwidth: Int, audioOnly: Bool) {
        self.playlistURL = playlistURL
        self.bandwidth = bandwidth
        self.audioOnly = audioOnly
    }
}

/// Picks what a radio plays from a master playlist. Pure: any thread.
///
/// Audio-only variants come first: the highest that fits the configured bandwidth, then the lower ones,
/// then those above it from the lowest up. With no audio-only variant, the audio renditions
/// (`EXT-X-MEDIA TYPE=AUDIO` with a URI) the video variants name, then the video variants themselves,
/// the lowest bitrate first (the pictures are downloaded for nothing). The rest of the list is the
/// order to fall back in when a choice fails.
public enum HLSVariantSelection {
    /// What a master playlist offers a radio.
    public enum Result: Equatable, Sendable {
        /// Choices in order of preference, none twice.
        case choices([HLSAudioChoice])
        /// Nothing a radio can play, in words for the failure ("HLS video only", "HLS audio codec ec-3").
        case unsupported(String)
    }

    public static func choices(in master: HLSMasterPlaylist, maximumBandwidth: Int?) -> Result {
        var audioOnly: [HLSAudioChoice] = []
        var renditions: [HLSAudioChoice] = []
        var muxed: [HLSAudioChoice] = []
        var unsupportedCodec: String?
        for variant in master.variants {
            guard let uri = variant.uri else { continue }
            let codecs = variant.codecs.map(HLSCodec.init)
            let audio = codecs.filter { $0.kind != .video && $0.kind != .other }
            if let unsupported = audio.first(where: { $0.kind == .unsupportedAudio }), !audio.contains(where: { $0.kind == .audio }) {
                unsupportedCodec = unsupportedCodec ?? unsupported.name
                continue
            }
            let groupURIs = master.renditions
                .filter { $0.type == "AUDIO" && $0.groupID == variant.audioGroup && $0.uri != nil }
                .sorted { rank($0) < rank($1) }
                .compactMap(\.uri)
            if let rendition = groupURIs.first {
                renditions.append(HLSAudioChoice(playlistURL: rendition, bandwidth: variant.bandwidth, audioOnly: true))
                continue
            }
            // Without CODECS nothing is known: the variant may well carry audio.
            guard audio.contains(where: { $0.kind == .audio }) || codecs.isEmpty else { continue }
            let choice = HLSAudioChoice(playlistURL: uri, bandwidth: variant.bandwidth, audioOnly: !variant.hasVideo)
            if variant.hasVideo { muxed.append(choice) } else { audioOnly.append(choice) }
        }
        let ordered = byPreference(audioOnly, maximumBandwidth: maximumBandwidth)
            + renditions.sorted { $0.bandwidth < $1.bandwidth }
            + muxed.sorted { $0.bandwidth < $1.bandwidth }
        var seen = Set<String>()
        let unique = ordered.filter { seen.insert($0.playlistURL).inserted }
        guard unique.isEmpty else { return .choices(unique) }
        if let unsupportedCodec { return .unsupported("HLS audio codec \(unsupportedCodec.prefix(32))") }
        return .unsupported("HLS video only")
    }

    /// The highest within the limit first, then down; then those over the limit, the least over first.
    private static func byPreference(_ choices: [HLSAudioChoice], maximumBandwidth: Int?) -> [HLSAudioChoice] {
        let limit = maximumBandwidth ?? Int.max
        let fitting = choices.filter { $0.bandwidth <= limit }.sorted { $0.bandwidth > $1.bandwidth }
        let over = choices.filter { $0.bandwidth > limit }.sorted { $0.bandwidth < $1.bandwidth }
        return fitting + over
    }

    /// DEFAULT first, then AUTOSELECT, then the rest in playlist order (the sort is stable).
    private static func rank(_ rendition: HLSRendition) -> Int {
        rendition.isDefault ? 0 : rendition.autoselect ? 1 : 2
    }
}

/// One entry of a `CODECS` attribute (RFC 6381), classified for a radio.
struct HLSCodec {
    enum Kind { case audio, unsupportedAudio, video, other }

    let name: String
    let kind: Kind

    init(_ name: String) {
        self.name = name
        let lowered = name.lowercased()
        let family = lowered.split(separator: ".", maxSplits: 1).first.map(String.init) ?? lowered
        switch family {
        case "mp4a":
            // mp4a.40.x is AAC (and .40.34 MP3); .66–.69 MPEG-2 AAC and MP3; .6b MP3; .a5/.a6 are Dolby.
            let objectType = lowered.dropFirst(5).split(separator: ".").first ?? ""
            kind = ["40", "66", "67", "68", "69", "6b"].contains(objectType) ? .audio : .unsupportedAudio
        case "mp3":
            kind = .audio
        case "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "dtsc", "dtse", "dtsh", "dtsl", "vorbis":
            kind = .unsupportedAudio
        case "avc1", "avc3", "hvc1", "hev1", "av01", "vp08", "vp09", "dvh1", "dvhe", "dva1", "dvav", "mp4v", "vvc1", "vvi1":
            kind = .video
        default:
            kind = .other
        }
    }
}
