/// What a stream server answered: status, final URL and the ICY headers that matter to a radio.
public struct StreamResponse: Equatable, Sendable {
    /// HTTP status (200 also for SHOUTcast's `ICY 200 OK`).
    public var statusCode: Int
    /// The URL after redirects.
    public var url: String
    /// `Content-Type`, as sent.
    public var contentType: String?
    /// Header fields of the final response, names lowercased; the last value wins.
    public var headers: [String: String]

    public init(statusCode: Int, url: String, contentType: String?, headers: [String: String]) {
        self.statusCode = statusCode
        self.url = url
        self.contentType = contentType
        self.headers = headers
    }

    /// The highest `icy-br` believed, in kbit/s (well above any audio stream: 24-bit 192 kHz stereo is 9,216).
    public static let maximumBitrate = 100_000

    /// `icy-metaint`: audio bytes between metadata blocks, nil when the stream has none. Only decimal digits
    /// count (as MPD and libavformat read it, anything else is no interval): 0 is none, and a number past
    /// `Int` is an interval no stream reaches, so none too. Whether a small one is played is
    /// ``ICYDemuxer/smallestMetaint``'s decision.
    public var metaint: Int? { headers["icy-metaint"].flatMap(Self.decimal).flatMap { $0 > 0 ? $0 : nil } }
    /// `icy-name`: the station's own name (cleaned and bounded as titles are).
    public var name: String? { headers["icy-name"].map { ICYMetadataParser.decodeText(Array($0.utf8)) } }
    /// `icy-br`: the announced bitrate in kbit/s (some servers send "128,128"); nil when it is not a
    /// number in 1...``maximumBitrate``.
    public var bitrate: Int? {
        headers["icy-br"].flatMap { $0.split(separator: ",").first }.flatMap { Self.decimal(String($0)) }
            .flatMap { (1...Self.maximumBitrate).contains($0) ? $0 : nil }
    }

    /// A plain decimal number (ASCII digits only, spaces around allowed); nil when not one or past `Int`.
    private static func decimal(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace().utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text.trimmingWhitespace())
    }
}
