import CurlSupport

/// An HTTP Live Streaming playlist (RFC 8216): a master playlist naming variant streams, or a media
/// playlist naming segments.
///
/// ``parse(_:url:)`` reads what a station sent, bounded in every dimension: the body, each line, the
/// attributes of a tag, the number of variants, renditions and segments (a live playlist longer than
/// ``maximumSegments`` keeps its newest). Relative URIs are resolved against the playlist's URL; only
/// `http` and `https` are followed. Pure: any thread.
public enum HLSPlaylist: Equatable, Sendable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)

    /// Bytes of a playlist read at most (two hours of 6-second segments take about 150 KB).
    public static let maximumBodyLength = 1 << 20
    /// A longer line is ignored (a segment URI too long to keep counts, unplayable).
    public static let maximumLineLength = 8192
    /// The newest segments kept of a longer playlist.
    public static let maximumSegments = 4096
    /// Variants (`EXT-X-STREAM-INF`) and renditions (`EXT-X-MEDIA`) kept, each.
    public static let maximumStreams = 256
    /// The largest `EXT-X-TARGETDURATION` and `EXTINF` believed, in seconds; larger ones are cut to it.
    public static let maximumDuration = 3600.0
    /// Media sequence numbers above this are cut to it, so numbering segments never overflows.
    public static let maximumMediaSequence: Int64 = 1 << 62

    /// The playlist in `body`, fetched from `url`; nil when `body` does not start with `#EXTM3U`.
    public static func parse(_ body: [UInt8], url: String) -> HLSPlaylist? {
        var lines = HLSPlaylistLines(body.prefix(maximumBodyLength))
        guard let first = lines.next(), first.hasPrefix("#EXTM3U") else { return nil }
        var parser = HLSPlaylistParser(baseURL: url)
        while let line = lines.next() { parser.read(line) }
        return parser.playlist
    }
}

/// A master playlist: the variants of one programme, and the renditions their groups offer.
public struct HLSMasterPlaylist: Equatable, Sendable {
    public var variants: [HLSVariant] = []
    public var renditions: [HLSRendition] = []

    public init(variants: [HLSVariant] = [], renditions: [HLSRendition] = []) {
        self.variants = variants
        self.renditions = renditions
    }
}

/// One `EXT-X-STREAM-INF` entry.
public struct HLSVariant: Equatable, Sendable {
    /// The variant's media playlist; nil when its URI is unusable.
    public var uri: String?
    /// `BANDWIDTH`: peak bits per second (0 when missing).
    public var bandwidth: Int
    /// `CODECS`, split at commas (empty when not given).
    public var codecs: [String]
    /// `AUDIO`: the group of `EXT-X-MEDIA` audio renditions that goes with it.
    public var audioGroup: String?
    /// Whether it carries pictures (`RESOLUTION`, `VIDEO` group or a video codec named).
    public var hasVideo: Bool

    public init(uri: String?, bandwidth: Int, codecs: [String] = [], audioGroup: String? = nil, hasVideo: Bool = false) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.codecs = codecs
        self.audioGroup = audioGroup
        self.hasVideo = hasVideo
    }
}

/// One `EXT-X-MEDIA` entry.
public struct HLSRendition: Equatable, Sendable {
    /// `TYPE`: `AUDIO`, `VIDEO`, `SUBTITLES`, `CLOSED-CAPTIONS`.
    public var type: String
    /// `GROUP-ID`.
    public var groupID: String
    /// `NAME`.
    public var name: String
    /// Its media playlist; nil when the rendition is in the variant's own stream (or the URI is unusable).
    public var uri: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var autoselect: Bool

    public init(type: String, groupID: String, name: String, uri: String?, isDefault: Bool = false, autoselect: Bool = false) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.uri = uri
        self.isDefault = isDefault
        self.autoselect = autoselect
    }
}

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

/// The lines of a playlist body: split at LF, CR and surrounding whitespace removed, a byte-order mark
/// dropped. A line longer than ``HLSPlaylist/maximumLineLength`` comes out empty when it is a tag or a
/// comment, else as ``overlongURI``.
struct HLSPlaylistLines: IteratorProtocol {
    /// Stands for a URI line too long to keep (no URI contains a NUL).
    static let overlongURI = "\u{0}"

    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.startIndex + 3 : bytes.startIndex
    }

    mutating func next() -> String? {
        guard index < bytes.endIndex else { return nil }
        let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.endIndex
        defer { index = end == bytes.endIndex ? end : end + 1 }
        guard end - index <= HLSPlaylist.maximumLineLength else {
            let first = bytes[index...].first { $0 != 0x20 && $0 != 0x09 }
            return first == UInt8(ascii: "#") ? "" : Self.overlongURI
        }
        return String(decoding: bytes[index..<end], as: UTF8.self).trimmingWhitespace()
    }
}

/// The tag-by-tag reading of a playlist, master and media alike.
private struct HLSPlaylistParser {
    let baseURL: String
    private var isMaster = false
    private var master = HLSMasterPlaylist()
    private var pendingVariant: HLSAttributes?

    private var targetDuration: Double?
    private var mediaSequence: Int64 = 0
    private var segments: [HLSSegment] = []
    private var segmentCount: Int64 = 0
    private var hasEnded = false
    private var pendingDuration: Double?
    private var pendingRange: HLSByteRange?
    private var pendingDiscontinuity = false
    private var pendingGap = false
    private var key: HLSKey?
    private var map: HLSMap?
    /// Where the last byte range ended, per resource: a range without an offset continues there.
    private var lastRange: (uri: String?, end: Int)?

    init(baseURL: String) { self.baseURL = baseURL }

    mutating func read(_ line: String) {
        if line.isEmpty { return }
        guard line.hasPrefix("#") else {
            uriLine(line)
            return
        }
        guard line.hasPrefix("#EXT") else { return }  // a comment
        let colon = line.firstIndex(of: ":")
        let name = colon.map { line[..<$0] } ?? Substring(line)
        let value = colon.map { line[line.index(after: $0)...] } ?? ""
        switch name {
        case "#EXT-X-STREAM-INF":
            isMaster = true
            pendingVariant = HLSAttributes(value)
        case "#EXT-X-MEDIA":
            isMaster = true
            rendition(HLSAttributes(value))
        case "#EXT-X-TARGETDURATION":
            targetDuration = HLSAttributes.decimal(value).map(Self.clampDuration)
        case "#EXT-X-MEDIA-SEQUENCE":
            mediaSequence = HLSAttributes.integer(value).map { min($0, HLSPlaylist.maximumMediaSequence) } ?? 0
        case "#EXTINF":
            let duration = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            pendingDuration = HLSAttributes.decimal(duration).map(Self.clampDuration)
        case "#EXT-X-BYTERANGE":
            pendingRange = Self.parseRange(value, continuing: -1)
        case "#EXT-X-DISCONTINUITY":
            pendingDiscontinuity = true
        case "#EXT-X-GAP":
            pendingGap = true
        case "#EXT-X-KEY":
            key = Self.key(HLSAttributes(value), baseURL: baseURL)
        case "#EXT-X-MAP":
            let attributes = HLSAttributes(value)
            let uri = attributes["URI"].flatMap { HLSPlaylistParser.absolute($0, base: baseURL) }
            map = HLSMap(uri: uri, byteRange: attributes["BYTERANGE"].flatMap { Self.parseRange(Substring($0), continuing: nil) },
                         key: key)
        case "#EXT-X-ENDLIST":
            hasEnded = true
        default:
            break
        }
    }

    var playlist: HLSPlaylist {
        if isMaster { return .master(master) }
        let longest = segments.map(\.duration).max() ?? 0
        let target = targetDuration ?? max(1, longest.rounded(.up))
        let kept = segments.count > HLSPlaylist.maximumSegments
            ? Array(segments.suffix(HLSPlaylist.maximumSegments)) : segments
        return .media(HLSMediaPlaylist(targetDuration: max(1, target), mediaSequence: mediaSequence, segments: kept,
                                       hasEnded: hasEnded))
    }

    private mutating func uriLine(_ line: String) {
        let uri = line == HLSPlaylistLines.overlongURI ? nil : Self.absolute(line, base: baseURL)
        if let attributes = pendingVariant {
            pendingVariant = nil
            guard master.variants.count < HLSPlaylist.maximumStreams else { return }
            master.variants.append(Self.variant(attributes, uri: uri))
            return
        }
        // Every URI line is a segment and takes a sequence number, usable or not.
        let range = pendingRange.flatMap { range -> HLSByteRange? in
            // A range without an offset continues the previous range of the same resource.
            guard range.offset < 0 else { return range }
            guard let last = lastRange, last.uri == uri else { return nil }
            return HLSByteRange(length: range.length, offset: last.end)
        }
        if let range {
            let (end, overflow) = range.offset.addingReportingOverflow(range.length)
            lastRange = overflow ? nil : (uri, end)
        }
        let sequence = mediaSequence + segmentCount
        segmentCount += 1
        segments.append(HLSSegment(
            sequence: sequence, duration: pendingDuration ?? targetDuration ?? 0,
            uri: pendingRange != nil && range == nil ? nil : uri, byteRange: range,
            discontinuity: pendingDiscontinuity, isGap: pendingGap, key: key, map: map))
        // Memory stays bounded however long the playlist: only the newest are kept.
        if segments.count >= 2 * HLSPlaylist.maximumSegments {
            segments.removeFirst(segments.count - HLSPlaylist.maximumSegments)
        }
        pendingDuration = nil
        pendingRange = nil
        pendingDiscontinuity = false
        pendingGap = false
    }

    private mutating func rendition(_ attributes: HLSAttributes) {
        guard master.renditions.count < HLSPlaylist.maximumStreams, let type = attributes["TYPE"],
              let group = attributes["GROUP-ID"] else { return }
        master.renditions.append(HLSRendition(
            type: type, groupID: group, name: attributes["NAME"] ?? "",
            uri: attributes["URI"].flatMap { Self.absolute($0, base: baseURL) },
            isDefault: attributes["DEFAULT"] == "YES", autoselect: attributes["AUTOSELECT"] == "YES"))
    }

    private static func variant(_ attributes: HLSAttributes, uri: String?) -> HLSVariant {
        let codecs = (attributes["CODECS"] ?? "").split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        let bandwidth = attributes.integer("BANDWIDTH").flatMap { Int(exactly: $0) } ?? 0
        let hasVideo = attributes["RESOLUTION"] != nil || attributes["VIDEO"] != nil
            || codecs.contains { HLSCodec($0).kind == .video }
        return HLSVariant(uri: uri, bandwidth: bandwidth, codecs: codecs, audioGroup: attributes["AUDIO"], hasVideo: hasVideo)
    }

    private static func key(_ attributes: HLSAttributes, baseURL: String) -> HLSKey? {
        let method = attributes["METHOD"] ?? ""
        if method == "NONE" { return nil }
        let uri = attributes["URI"].flatMap { absolute($0, base: baseURL) }
        if let format = attributes["KEYFORMAT"], format != "identity" {
            return HLSKey(method: .unsupported("DRM (KEYFORMAT \(format.prefix(64)))"), uri: uri)
        }
        guard method == "AES-128" else {
            return HLSKey(method: .unsupported(method.isEmpty ? "a key without METHOD" : String(method.prefix(32))), uri: uri)
        }
        guard uri != nil else { return HLSKey(method: .unsupported("AES-128 without a key URI"), uri: nil) }
        guard let text = attributes["IV"] else { return HLSKey(method: .aes128, uri: uri) }
        guard let iv = hexBlock(text) else { return HLSKey(method: .unsupported("AES-128 with a malformed IV"), uri: uri) }
        return HLSKey(method: .aes128, uri: uri, iv: iv)
    }

    /// `0x` and up to 32 hex digits as 16 bytes (fewer digits are the low end of the number).
    private static func hexBlock(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = Array(text.utf8.dropFirst(2))
        guard (1...32).contains(digits.count) else { return nil }
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: 32 - digits.count) + digits
        var block: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = hexValue(padded[index]), let low = hexValue(padded[index + 1]) else { return nil }
            block.append(high << 4 | low)
        }
        return block
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `length[@offset]`; without an offset, `continuing` stands in (-1: "continues the previous range").
    private static func parseRange(_ value: Substring, continuing: Int?) -> HLSByteRange? {
        let parts = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = HLSAttributes.integer(parts[0]).flatMap({ Int(exactly: $0) }), length > 0 else { return nil }
        if parts.count == 2 {
            guard let offset = HLSAttributes.integer(parts[1]).flatMap({ Int(exactly: $0) }) else { return nil }
            return HLSByteRange(length: length, offset: offset)
        }
        guard let continuing else { return HLSByteRange(length: length, offset: 0) }
        return HLSByteRange(length: length, offset: continuing)
    }

    private static func clampDuration(_ seconds: Double) -> Double {
        min(max(seconds, 0), HLSPlaylist.maximumDuration)
    }

    /// An absolute `http`/`https` URL for a playlist's URI; nil for other schemes or what libcurl cannot parse.
    static func absolute(_ uri: String, base: String) -> String? {
        guard !uri.isEmpty else { return nil }
        if let scheme = CurlURL.scheme(of: uri) {
            return scheme == "http" || scheme == "https" ? uri : nil
        }
        return CurlURL.resolve(uri, against: base)
    }
}

/// An attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, values plain or quoted.
/// At most ``maximumCount`` attributes are kept; names are case-sensitive, the first of a name wins.
struct HLSAttributes {
    static let maximumCount = 64
    private var pairs: [(name: Substring, value: Substring)] = []

    init(_ text: Substring) {
        var rest = text[...]
        while !rest.isEmpty && pairs.count < Self.maximumCount {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingWhitespace()
            var valueStart = rest.index(after: equals)
            let value: Substring
            if valueStart < rest.endIndex && rest[valueStart] == "\"" {
                valueStart = rest.index(after: valueStart)
                let close = rest[valueStart...].firstIndex(of: "\"") ?? rest.endIndex
                value = rest[valueStart..<close]
                let afterClose = close < rest.endIndex ? rest.index(after: close) : close
                rest = rest[afterClose...]
                rest = rest.firstIndex(of: ",").map { rest[rest.index(after: $0)...] } ?? ""
            } else {
                let comma = rest[valueStart...].firstIndex(of: ",") ?? rest.endIndex
                value = rest[valueStart..<comma]
                rest = comma < rest.endIndex ? rest[rest.index(after: comma)...] : ""
            }
            if !name.isEmpty && !pairs.contains(where: { $0.name == Substring(name) }) {
                pairs.append((Substring(name), value))
            }
        }
    }

    subscript(name: String) -> String? {
        pairs.first { $0.name == name }.map { String($0.value).trimmingWhitespace() }
    }

    func integer(_ name: String) -> Int64? { self[name].flatMap { Self.integer(Substring($0)) } }

    /// A decimal-integer: digits only, nil when it does not fit 63 bits.
    static func integer(_ text: Substring) -> Int64? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(digits)
    }

    /// A decimal-floating-point, nil when it is not a finite number.
    static func decimal(_ text: Substring) -> Double? {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else { return nil }
        return value
    }
}
