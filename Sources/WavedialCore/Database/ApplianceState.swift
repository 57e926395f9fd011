/// What the radio remembers across power cuts besides favorites and history: one row
/// in `setting`, written only when it changes.
public struct ApplianceState: Codable, Sendable, Equatable {
    /// The station tuned last (resumed on power-up).
    public var lastStation: String?
    /// Volume 0–100.
    public var volume: Int
    public var muted: Bool
    /// The band the dial showed: `nearby` or `favorites`.
    public var band: String

    public init(lastStation: String? = nil, volume: Int = 70, muted: Bool = false, band: String = "nearby") {
        self.lastStation = lastStation
        self.volume = volume
        self.muted = muted
        self.band = band
    }

    enum CodingKeys: String, CodingKey {
        case lastStation = "last_station"
        case volume, muted, band
    }
}
