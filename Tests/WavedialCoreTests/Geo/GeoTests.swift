import XCTest

@testable import WavedialCore

final class GeoTests: XCTestCase {
    func testGreatCircleDistances() {
        let berlin = Coordinate(latitude: 52.5200, longitude: 13.4050)
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        XCTAssertEqual(berlin.distanceKm(to: paris), 878, accuracy: 2)
        XCTAssertEqual(berlin.distanceKm(to: berlin), 0, accuracy: 1e-9)
        // Across the antimeridian: Fiji to Samoa is about 1,150 km, not most of the globe.
        let suva = Coordinate(latitude: -18.1248, longitude: 178.4501)
        let apia = Coordinate(latitude: -13.8507, longitude: -171.7514)
        XCTAssertEqual(suva.distanceKm(to: apia), 1146, accuracy: 15)
        let antipode = Coordinate(latitude: -52.52, longitude: -166.595)
        XCTAssertEqual(berlin.distanceKm(to: antipode), .pi * Coordinate.earthRadiusKm, accuracy: 1)
    }

    func testInvalidCoordinatesAreNoPosition() {
        XCTAssertNil(Coordinate(validLatitude: 10, longitude: -273))
        XCTAssertNil(Coordinate(validLatitude: 95, longitude: 0))
        XCTAssertNil(Coordinate(validLatitude: .nan, longitude: 0))
        XCTAssertNil(Coordinate(validLatitude: nil, longitude: 10))
        XCTAssertNil(Coordinate(validLatitude: 0, longitude: 0))
        XCTAssertNotNil(Coordinate(validLatitude: -90, longitude: 180))
    }

    func testSearchBoxesWrapTheAntimeridianAndReachThePoles() {
        let fiji = GeoBox(around: Coordinate(latitude: -18, longitude: 179), radiusKm: 500)
        XCTAssertEqual(fiji.longitudeSpans.count, 2)
        XCTAssertEqual(fiji.longitudeSpans[0].upperBound, 180)
        XCTAssertEqual(fiji.longitudeSpans[1].lowerBound, -180)
        let pole = GeoBox(around: Coordinate(latitude: 89, longitude: 0), radiusKm: 500)
        XCTAssertEqual(pole.longitudeSpans, [-180...180])
        XCTAssertEqual(pole.maxLatitude, 90)
        XCTAssertTrue(GeoBox(around: Coordinate(latitude: 0, longitude: 0), radiusKm: 20_000).coversEverything)
        // Every point within the radius is inside the box.
        let centre = Coordinate(latitude: 60, longitude: 10)
        let box = GeoBox(around: centre, radiusKm: 300)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let point = Coordinate(latitude: .random(in: 50...70, using: &random), longitude: .random(in: -10...30, using: &random))
            guard centre.distanceKm(to: point) <= 300 else { continue }
            XCTAssertTrue((box.minLatitude...box.maxLatitude).contains(point.latitude), "\(point)")
            XCTAssertTrue(box.longitudeSpans.contains { $0.contains(point.longitude) }, "\(point)")
        }
    }
}
