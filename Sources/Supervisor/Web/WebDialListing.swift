import WavedialCore

/// ``DialListing`` as `GET /api/dial` and `GET /api/favorites` write it (snake_case, as `status --json`).
struct WebDialListing: Encodable {
    struct Entry: Encodable {
        var stationuuid: String
        var name: String
        var frequencyMHz: Double?
        var favoriteNumber: Int?

        enum CodingKeys: String, CodingKey {
            case stationuuid, name
            case frequencyMHz = "frequency_mhz"
            case favoriteNumber = "favorite_number"
        }

        init(_ entry: DialListing.Entry) {
            stationuuid = entry.stationuuid
            name = entry.name
            frequencyMHz = entry.frequencyMHz
            favoriteNumber = entry.favoriteNumber
        }
    }

    /// `{"favorites":[…]}`.
    struct Favorites: Encodable {
        var favorites: [Entry]
    }

    var band: DialBandKind
    var startMHz: Double
    var endMHz: Double
    var needleMHz: Double
    var dial: [Entry]
    var favorites: [Entry]

    enum CodingKeys: String, CodingKey {
        case band, dial, favorites
        case startMHz = "start_mhz"
        case endMHz = "end_mhz"
        case needleMHz = "needle_mhz"
    }

    init(_ listing: DialListing) {
        band = listing.band
        startMHz = listing.startMHz
        endMHz = listing.endMHz
        needleMHz = listing.needleMHz
        dial = listing.dial.map(Entry.init)
        favorites = listing.favorites.map(Entry.init)
    }
}
