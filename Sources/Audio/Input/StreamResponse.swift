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

    /// `icy-metaint`: audio bytes between metadata blocks, nil when the stream has none.
    public var metaint: Int? { headers["icy-metaint"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
    /// `icy-name`: the station's own name.
    public var name: String? { headers["icy-name"].map { ICYMetadataParser.decodeText(Array($0.utf8)) } }
    /// `icy-br`: the announced bitrate in kbit/s (some servers send "128,128"); nil when absent or
    /// beyond any audio stream's (the player multiplies it into bytes a second).
    public var bitrate: Int? {
        headers["icy-br"].flatMap { $0.split(separator: ",").first }.flatMap { Int($0) }.flatMap { (1...100_000).contains($0) ? $0 : nil }
    }
}
