/// What the radio remembers across power cuts besides favorites and history: one row
/// in `setting`, written only when it changes.
public struct ApplianceState: Codable, Sendable, Equatable {
    /// The station tuned last (resumed on power-up).
    public var lastStation: String?
    /// The URL of the station tuned last when the user typed it (`tune URL`): the catalog does not know
    /// that station, so it is made again from its URL on power-up.
    public var lastTypedURL: String?
    /// Volume 0–100.
    public var volume: Int
    public var muted: Bool
    /// The band the dial showed: `nearby` or `favorites`.
    public var band: String

    public init(lastStation: String? = nil, lastTypedURL: String? = nil, volume: Int = 70, muted: Bool = false,
                band: String = "nearby") {
        self.lastStation = lastStation
        self.lastTypedURL = lastTypedURL
        self.volume = volume
        self.muted = muted
        self.band = band
    }

    enum CodingKeys: String, CodingKey {
        case lastStation = "last_station"
        case lastTypedURL = "last_typed_url"
        case volume, muted, band
    }
}
