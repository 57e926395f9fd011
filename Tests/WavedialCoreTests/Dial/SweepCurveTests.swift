import XCTest

@testable import WavedialCore

final class SweepCurveTests: XCTestCase {
    func testFullAtTheStationsFrequencyFadingToNothingWithinOneAndAHalfChannels() {
        let fm = Band.fm
        XCTAssertEqual(SweepCurve.level(needleKHz: 94_100, stationKHz: 94_100, band: fm), 1)
        XCTAssertEqual(SweepCurve.level(needleKHz: 94_000, stationKHz: 94_100, band: fm), 0.25, accuracy: 1e-9)
        XCTAssertEqual(SweepCurve.level(needleKHz: 94_200, stationKHz: 94_100, band: fm), 0.25, accuracy: 1e-9, "symmetric")
        XCTAssertEqual(SweepCurve.level(needleKHz: 93_950, stationKHz: 94_100, band: fm), 0, "at ±0.15 MHz the station is gone")
        XCTAssertEqual(SweepCurve.level(needleKHz: 93_900, stationKHz: 94_100, band: fm), 0)
        XCTAssertEqual(SweepCurve.level(needleKHz: 87_500, stationKHz: 108_000, band: fm), 0)
    }

    func testFallsSteadilyWithDistanceAndStaysWithinBounds() {
        let band = Band(startKHz: 76_000, endKHz: 95_000, stepKHz: 50)!
        var previous = 2.0
        for distance in 0...200 {
            let level = SweepCurve.level(needleKHz: 80_000 + distance, stationKHz: 80_000, band: band)
            XCTAssertTrue((0...1).contains(level), "\(level) at \(distance) kHz")
            XCTAssertLessThanOrEqual(level, previous, "never rises moving away (\(distance) kHz)")
            previous = level
        }
        XCTAssertEqual(SweepCurve.level(needleKHz: 80_075, stationKHz: 80_000, band: band), 0, "the width follows the band's step")
        XCTAssertGreaterThan(SweepCurve.level(needleKHz: 80_050, stationKHz: 80_000, band: band), 0)
    }

    func testExtremeFrequenciesNeverTrap() {
        let band = Band(startKHz: 1, endKHz: 10_000_000, stepKHz: 1)!
        XCTAssertEqual(SweepCurve.level(needleKHz: Int.min, stationKHz: Int.max, band: band), 0)
        XCTAssertEqual(SweepCurve.level(needleKHz: Int.max, stationKHz: Int.min, band: band), 0)
        XCTAssertEqual(SweepCurve.level(needleKHz: 5, stationKHz: 5, band: band), 1)
    }
}
