/// A station with its distance from the radio (nil when it has no valid position and
/// was chosen because it is in the configured country).
public struct NearbyStation: Sendable, Equatable {
    public var station: Station
    public var distanceKm: Double?

    public init(station: Station, distanceKm: Double?) {
        self.station = station
        self.distanceKm = distanceKm
    }
}
