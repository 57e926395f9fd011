/// Which catalog stations the radio plays, from what Radio Browser says of them.
///
/// Radio Browser's `codec` is a comma-separated list: one audio codec, and for audio+video
/// streams (HLS mostly) a video codec after it, e.g. `"AAC,H.264"`; case varies (`"mp3"`). A station
/// plays when its list names an audio codec the radio decodes, or nothing but `UNKNOWN` (the
/// player then finds out), and its stream is HTTP. Video-only lists, other audio codecs (WMA)
/// and RTMP/MMS/RTSP streams cannot play. The rule is also the SQL function `wd_playable`, so
/// that a migration can re-derive the stored `playable` column with it.
public enum StationPlayability {
    /// Why a station cannot play.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// Its codec or protocol: "WMA", "H.264 video", "RTMP".
        case formatNotSupported(String)
        /// It did not answer at Radio Browser's last check.
        case failedLastCheck

        public var description: String {
            switch self {
            case .formatNotSupported(let format): return "Format not supported (\(format))"
            case .failedLastCheck: return "failed Radio Browser's last check"
            }
        }
    }

    /// Audio codecs the radio decodes, as Radio Browser names them (upper case).
    static let playableAudioCodecs: Set<String> = ["MP3", "AAC", "AAC+", "OGG", "OPUS", "VORBIS", "FLAC"]

    /// Video codecs Radio Browser names for audio+video streams (upper case).
    static let videoCodecs: Set<String> = ["H.264", "H264", "AVC", "H.265", "H265", "HEVC", "VP8", "VP9", "AV1", "THEORA"]

    /// URL schemes of streaming protocols the player does not speak, and the name a reason gives them.
    static let unsupportedSchemes: [String: String] = [
        "rtmp": "RTMP", "rtmps": "RTMP", "rtmpt": "RTMP", "rtmpe": "RTMP",
        "mms": "MMS", "mmsh": "MMS", "mmst": "MMS", "rtsp": "RTSP", "rtsps": "RTSP",
    ]

    /// Why a station with these fields cannot play, nil when it can. `hls` needs nothing of its
    /// own: an HLS station plays when its codec list names audio the radio decodes.
    public static func reason(codec: String, hls: Bool, lastCheckOK: Bool, streamURL: String) -> Reason? {
        if let scheme = scheme(of: streamURL), let name = unsupportedSchemes[scheme] { return .formatNotSupported(name) }
        if let format = unsupportedFormat(codec: codec) { return .formatNotSupported(format) }
        return lastCheckOK ? nil : .failedLastCheck
    }

    /// The first codec of the list that rules the station out, nil when the list allows it.
    private static func unsupportedFormat(codec: String) -> String? {
        // A sync derives this for every station: plain splitting, no Foundation on the way.
        let names = codec.split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" }.uppercased() }.filter { !$0.isEmpty }
        if names.contains(where: playableAudioCodecs.contains) { return nil }
        if let other = names.first(where: { $0 != "UNKNOWN" && !videoCodecs.contains($0) }) { return other }
        return names.first(where: videoCodecs.contains).map { "\($0) video" }
    }

    /// The lower-cased scheme of `url` (the letters before `:`), nil when it has none.
    private static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].filter { $0 != " " }
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }
}
