/// What a URL turned out to serve, as ``FormatSniffer`` judged it.
public enum StreamFormat: Equatable, Sendable {
    /// An audio stream the player decodes, in this encoding.
    case audio(AudioEncoding)
    /// A playlist to resolve into stream URLs.
    case playlist(PlaylistKind)
    /// HTTP Live Streaming: an `.m3u8` with `#EXT-X-` tags, played segment by segment.
    case hls
    /// Something the radio cannot play (WMA, MP4 files, DASH, an HTML page, ...), named for the failure message.
    case unsupported(String)
}

/// The playlist syntaxes stations use to point at their streams.
public enum PlaylistKind: Equatable, Sendable {
    /// `[playlist]` with `FileN=` entries (SHOUTcast's `.pls`).
    case pls
    /// One URL a line, `#` comments (`.m3u`, and `.m3u8` that is not HLS).
    case m3u
}
