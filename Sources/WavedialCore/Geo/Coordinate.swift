import Foundation

/// A point on Earth in degrees (WGS 84, as Radio Browser's `geo_lat`/`geo_long`).
public struct Coordinate: Sendable, Equatable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A coordinate only when both values are finite and inside their ranges: real
    /// catalog data carries longitudes like −273, which are treated as "no position".
    public init?(validLatitude latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite,
              (-90...90).contains(latitude), (-180...180).contains(longitude),
              !(latitude == 0 && longitude == 0)  // "0,0" is a placeholder, not a station in the Gulf of Guinea
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Mean Earth radius used for great-circle distances.
    public static let earthRadiusKm = 6371.0088

    /// Great-circle distance in kilometres (haversine formula).
    public func distanceKm(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Self.earthRadiusKm * asin(min(1, sqrt(a)))
    }
}
