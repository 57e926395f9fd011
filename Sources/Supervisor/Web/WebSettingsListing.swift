import ApplianceSetup
import WavedialCore

/// `GET /api/settings`: the radio's current settings that are not secret (never a Wi-Fi key or a password, only
/// whether a web password is set), whether the setup access point is up, and the time zones to choose from.
struct WebSettingsListing: Encodable {
    struct Wifi: Encodable {
        var ssid: String?
        var country: String?
    }

    struct System: Encodable {
        var hostname: String?
        var timezone: String?
    }

    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
    }

    struct Web: Encodable {
        var passwordSet: Bool

        enum CodingKeys: String, CodingKey {
            case passwordSet = "password_set"
        }
    }

    var wifi: Wifi
    var system: System
    var location: Location?
    var web: Web
    /// Whether the setup access point is up (the page is a captive portal).
    var hotspot: Bool
    /// zone1970.tab's zones, by name.
    var timezones: [String]

    init(applied: AppliedSetup, location: Coordinate?, webPasswordSet: Bool, hotspot: Bool, zoneTable: ZoneTable?) {
        wifi = Wifi(ssid: applied.wifiSSID, country: applied.wifiCountry)
        system = System(hostname: applied.hostname, timezone: applied.timezone)
        self.location = location.map { Location(latitude: $0.latitude, longitude: $0.longitude) }
        web = Web(passwordSet: webPasswordSet)
        self.hotspot = hotspot
        timezones = (zoneTable?.zones.map(\.name) ?? []).sorted()
    }
}

/// `GET /api/places?q=TEXT`: the cities of zone1970.tab that match, with their time zone and position.
struct WebPlace: Encodable {
    var place: String
    var timezone: String
    var latitude: Double
    var longitude: Double

    init(_ zone: ZoneTable.Zone) {
        place = zone.city
        timezone = zone.name
        latitude = zone.coordinate.latitude
        longitude = zone.coordinate.longitude
    }
}

/// The answer to `POST /api/settings`: 202 `{"accepted": true}`, or 422 with each problem by key.
struct WebSettingsAnswer: Encodable {
    struct Problem: Encodable {
        var key: String
        var message: String
    }

    var accepted: Bool
    var problems: [Problem]?
    /// The problems in a sentence, for the page's message line.
    var error: String?

    static let accepted = WebSettingsAnswer(accepted: true)

    init(accepted: Bool, problems: [Problem]? = nil, error: String? = nil) {
        self.accepted = accepted
        self.problems = problems
        self.error = error
    }

    init(refused: SetupProblems) {
        let problems = refused.problems.map { Problem(key: $0.key, message: $0.message) }
        self.init(accepted: false, problems: problems,
                  error: problems.map { $0.key.isEmpty ? $0.message : "\($0.key): \($0.message)" }.joined(separator: "; "))
    }
}
