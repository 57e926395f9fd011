import WavedialTestSupport
import XCTest

@testable import WavedialCore

final class NearbyTests: XCTestCase {
    private typealias F = StationFixtures

    func testMatchesABruteForceScanEverywhere() throws {
        let stations = F.generated(count: 3000, seed: 7)
        let database = try WavedialDatabase.inMemory(with: stations)
        let located = stations.filter { $0.isPlayable && $0.coordinate != nil }
        let places = [
            Coordinate(latitude: 52.52, longitude: 13.405), Coordinate(latitude: -18, longitude: 179.9),
            Coordinate(latitude: -17, longitude: -179.8), Coordinate(latitude: 89.9, longitude: 0),
            Coordinate(latitude: -89, longitude: 45), Coordinate(latitude: 0, longitude: 0.1),
        ]
        for place in places {
            for limit in [1, 10, 60] {
                let expected = located.map { ($0.stationuuid, place.distanceKm(to: $0.coordinate!)) }
                    .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit)
                let actual = try database.nearby(place, countryCode: nil, limit: limit, radiusKm: 30_000)
                XCTAssertEqual(actual.map(\.station.stationuuid), expected.map(\.0), "\(place) limit \(limit)")
                for (result, reference) in zip(actual, expected) {
                    XCTAssertEqual(result.distanceKm!, reference.1, accuracy: 1e-6)
                }
            }
        }
    }

    func testOnlyPlayableStationsWithValidPositions() throws {
        let database = try WavedialDatabase.inMemory(with: [
            F.station("wma", "WMA", lat: 52.5, lon: 13.4, codec: "WMA"),
            F.station("hls", "HLS video", lat: 52.5, lon: 13.4, codec: "H.264", hls: true),
            F.station("broken", "Broken", lat: 52.5, lon: 13.4, ok: false),
            F.station("bogus", "Bogus longitude", lat: 52.5, lon: -273),
            F.station("mp3", "MP3", lat: 48.1, lon: 11.6),
        ])
        let result = try database.nearby(Coordinate(latitude: 52.5, longitude: 13.4), countryCode: nil, limit: 10, radiusKm: 1000)
        XCTAssertEqual(result.map(\.station.stationuuid), ["mp3"])
    }

    func testCountryStationsWithoutPositionFillUpWhenTooFewAreNear() throws {
        let database = try WavedialDatabase.inMemory(with: [
            F.station("near", "Near", lat: 52.5, lon: 13.4),
            F.station("far", "Far", lat: -33.9, lon: 18.4, country: "ZA"),
            F.station("de-popular", "DE popular", country: "DE", votes: 100),
            F.station("de-quiet", "DE quiet", country: "DE", votes: 1),
            F.station("de-wma", "DE wma", country: "DE", codec: "WMA", votes: 1000),
            F.station("fr", "FR", country: "FR", votes: 500),
        ])
        let here = Coordinate(latitude: 52.52, longitude: 13.40)
        let result = try database.nearby(here, countryCode: "DE", limit: 4, radiusKm: 250)
        XCTAssertEqual(result.map(\.station.stationuuid), ["near", "de-popular", "de-quiet", "far"])
        XCTAssertNil(result[1].distanceKm)
        XCTAssertNotNil(result[3].distanceKm)
        let noCountry = try database.nearby(here, countryCode: nil, limit: 4, radiusKm: 250)
        XCTAssertEqual(noCountry.map(\.station.stationuuid), ["near", "far"])
    }
}
