/// A media playlist: the segments of one stream, with what a client needs to follow it live.
public struct HLSMediaPlaylist: Equatable, Sendable {
    /// `EXT-X-TARGETDURATION` in seconds (at least 1; the longest segment's when the tag is missing).
    public var targetDuration: Double
    /// `EXT-X-MEDIA-SEQUENCE`: the first segment's number.
    public var mediaSequence: Int64
    /// The segments, oldest first.
    public var segments: [HLSSegment]
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEnded: Bool

    public init(targetDuration: Double, mediaSequence: Int64 = 0, segments: [HLSSegment] = [], hasEnded: Bool = false) {
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.segments = segments
        self.hasEnded = hasEnded
    }

    /// The number the next segment added will have.
    public var nextSequence: Int64 { (segments.last?.sequence).map { $0 + 1 } ?? mediaSequence }

    /// Where a live client starts (RFC 8216 §6.3.3): the latest segment that starts at least three target
    /// durations before the end, so the playlist's refreshes stay ahead of playback. A playlist that has
    /// ended is played from its start.
    public var liveEdgeSequence: Int64 {
        guard !hasEnded else { return mediaSequence }
        var remaining = 0.0
        for segment in segments.reversed() {
            remaining += segment.duration
            if remaining >= 3 * targetDuration { return segment.sequence }
        }
        return segments.first?.sequence ?? mediaSequence
    }
}

/// One media segment and what applies to it.
public struct HLSSegment: Equatable, Sendable {
    /// Its media sequence number.
    public var sequence: Int64
    /// `EXTINF` duration in seconds (the target duration when missing or absurd).
    public var duration: Double
    /// The segment's URL; nil when its URI is unusable (the segment counts, but cannot be played).
    public var uri: String?
    /// `EXT-X-BYTERANGE`: the part of the resource that is the segment.
    public var byteRange: HLSByteRange?
    /// `EXT-X-DISCONTINUITY` before it: its timestamps and encoding need not continue the last segment's.
    public var discontinuity: Bool
    /// `EXT-X-GAP`: the segment is missing and must not be loaded.
    public var isGap: Bool
    /// The `EXT-X-KEY` in effect; nil when the segment is not encrypted.
    public var key: HLSKey?
    /// The `EXT-X-MAP` in effect (fMP4's initialization section).
    public var map: HLSMap?

    public init(sequence: Int64, duration: Double, uri: String?, byteRange: HLSByteRange? = nil, discontinuity: Bool = false,
                isGap: Bool = false, key: HLSKey? = nil, map: HLSMap? = nil) {
        self.sequence = sequence
        self.duration = duration
        self.uri = uri
        self.byteRange = byteRange
        self.discontinuity = discontinuity
        self.isGap = isGap
        self.key = key
        self.map = map
    }
}

/// `EXT-X-BYTERANGE` or a `BYTERANGE` attribute: `length` bytes from `offset`.
public struct HLSByteRange: Equatable, Hashable, Sendable {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }
}

/// An `EXT-X-KEY` other than `METHOD=NONE`.
public struct HLSKey: Equatable, Hashable, Sendable {
    /// `METHOD`.
    public enum Method: Equatable, Hashable, Sendable {
        /// Whole segments in AES-128-CBC with PKCS#7 padding.
        case aes128
        /// Anything else (`SAMPLE-AES`, `SAMPLE-AES-CTR`, a DRM's `KEYFORMAT`, a malformed key), named for the failure.
        case unsupported(String)
    }

    public var method: Method
    /// The key's URL.
    public var uri: String?
    /// `IV`: 16 bytes; nil when the segment's media sequence number is the IV.
    public var iv: [UInt8]?

    public init(method: Method, uri: String?, iv: [UInt8]? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
    }
}

/// `EXT-X-MAP`: the initialization section (fMP4's `ftyp` and `moov`) of the segments after it.
public struct HLSMap: Equatable, Hashable, Sendable {
    public var uri: String?
    public var byteRange: HLSByteRange?
    /// The `EXT-X-KEY` in effect where the map is declared (it encrypts the map too).
    public var key: HLSKey?

    public init(uri: String?, byteRange: HLSByteRange? = nil, key: HLSKey? = nil) {
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
    }
}
