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
