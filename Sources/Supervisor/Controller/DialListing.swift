import WavedialCore

/// The stations a household control shows (the MPD server's queue and playlists, the web page's dial
/// and favorites): the active band as the needle sees it, and the favorites in their order.
/// A snapshot taken on the controller's queue (``RadioController/dialListing()``); any thread may read it.
public struct DialListing: Sendable, Equatable {
    /// A station on the dial or among the favorites.
    public struct Entry: Sendable, Equatable {
        public var stationuuid: String
        public var name: String
        /// Where it sits on the active band; nil when it is not on it.
        public var frequencyMHz: Double?
        /// Its number among the favorites (1 is the first, as `favorite(number:)` takes it); nil when not a favorite.
        public var favoriteNumber: Int?

        public init(stationuuid: String, name: String, frequencyMHz: Double?, favoriteNumber: Int? = nil) {
            self.stationuuid = stationuuid
            self.name = name
            self.frequencyMHz = frequencyMHz
            self.favoriteNumber = favoriteNumber
        }
    }

    /// The band shown, as ``RadioStatus/band``.
    public var band: DialBandKind
    /// The band's edges, for a slider over it.
    public var startMHz: Double
    public var endMHz: Double
    public var needleMHz: Double
    /// The active band's stations, lowest frequency first.
    public var dial: [Entry]
    /// The favorites, in the order their numbers follow.
    public var favorites: [Entry]

    public init(band: DialBandKind, startMHz: Double, endMHz: Double, needleMHz: Double, dial: [Entry], favorites: [Entry]) {
        self.band = band
        self.startMHz = startMHz
        self.endMHz = endMHz
        self.needleMHz = needleMHz
        self.dial = dial
        self.favorites = favorites
    }
}

extension RadioController {
    /// The stations on the active band and the favorites, from any thread (waits for the controller's queue).
    public func dialListing() -> DialListing {
        queue.sync { makeDialListing() }
    }
}
