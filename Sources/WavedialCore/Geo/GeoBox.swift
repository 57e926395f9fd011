import Foundation

/// A latitude/longitude box that contains every point within a radius of a centre:
/// the R*Tree pre-filter for nearby queries. Longitude ranges may wrap the antimeridian,
/// so a box is one or two longitude spans.
struct GeoBox: Equatable {
    var minLatitude: Double
    var maxLatitude: Double
    var longitudeSpans: [ClosedRange<Double>]

    /// The smallest such box around `centre` for `radiusKm` (a spherical cap's bounds).
    init(around centre: Coordinate, radiusKm: Double) {
        let angular = radiusKm / Coordinate.earthRadiusKm
        let latitude = centre.latitude * .pi / 180
        let minLat = latitude - angular, maxLat = latitude + angular
        minLatitude = max(-90, minLat * 180 / .pi)
        maxLatitude = min(90, maxLat * 180 / .pi)
        // A cap that reaches a pole, or half the globe, spans every longitude.
        if minLat <= -.pi / 2 || maxLat >= .pi / 2 || angular >= .pi / 2 {
            longitudeSpans = [-180...180]
            return
        }
        let Δλ = asin(min(1, sin(angular) / cos(latitude))) * 180 / .pi
        let low = centre.longitude - Δλ, high = centre.longitude + Δλ
        if Δλ >= 180 {
            longitudeSpans = [-180...180]
        } else if low < -180 {
            longitudeSpans = [-180...high, (low + 360)...180]
        } else if high > 180 {
            longitudeSpans = [low...180, -180...(high - 360)]
        } else {
            longitudeSpans = [low...high]
        }
    }

    /// Whether the box is the whole globe (a wider search cannot find more).
    var coversEverything: Bool {
        minLatitude <= -90 && maxLatitude >= 90 && longitudeSpans == [-180...180]
    }
}
