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
            // Only before the first segment (RFC 8216 §4.3.3.2): later it would renumber segments already counted.
            guard segmentCount == 0 else { return }
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
