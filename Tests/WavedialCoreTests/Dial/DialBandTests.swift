import XCTest

@testable import WavedialCore

final class DialBandTests: XCTestCase {
    private let dial = DialBand(band: .fm, assignments: ["low": 94_000, "high": 94_400, "far": 104_000])

    func testSnapsToTheClosestStation() {
        XCTAssertEqual(dial.closest(to: 94_100)?.stationuuid, "low")
        XCTAssertEqual(dial.closest(to: 94_300)?.stationuuid, "high")
        XCTAssertEqual(dial.closest(to: 87_500)?.stationuuid, "low")
        XCTAssertEqual(dial.closest(to: 108_000)?.stationuuid, "far")
        XCTAssertEqual(dial.closest(to: 99_100)?.stationuuid, "high")
        XCTAssertEqual(dial.closest(to: 99_300)?.stationuuid, "far")
    }

    func testTiesGoInTheDirectionOfTravel() {
        XCTAssertEqual(dial.closest(to: 94_200, direction: 1)?.stationuuid, "high")
        XCTAssertEqual(dial.closest(to: 94_200, direction: -1)?.stationuuid, "low")
        XCTAssertEqual(dial.closest(to: 94_200, direction: 0)?.stationuuid, "low")
    }

    func testEmptyBand() {
        XCTAssertNil(DialBand(band: .fm, assignments: [:]).closest(to: 100_000))
    }

    func testEntriesAreSortedByFrequency() {
        XCTAssertEqual(dial.entries.map(\.kHz), [94_000, 94_400, 104_000])
        XCTAssertEqual(dial.frequency(of: "far"), 104_000)
    }
}

final class BandTests: XCTestCase {
    func testChannelsAndFormatting() {
        let fm = Band.fm
        XCTAssertEqual(fm.slotCount, 206)
        XCTAssertEqual(fm.format(87_500), "87.5")
        XCTAssertEqual(fm.format(108_000), "108.0")
        XCTAssertEqual(fm.megahertz(94_100), 94.1)
        XCTAssertEqual(fm.slot(nearest: 87_549), 0)
        XCTAssertEqual(fm.slot(nearest: 87_550), 1)
        XCTAssertEqual(fm.slot(nearest: 10_000), 0)
        XCTAssertEqual(fm.moved(107_900, by: 5), 108_000)
        XCTAssertEqual(fm.moved(94_100, by: -3), 93_800)
        XCTAssertTrue(fm.isChannel(94_100))
        XCTAssertFalse(fm.isChannel(94_150))
        let fine = Band(startMHz: 87.5, endMHz: 108, stepMHz: 0.05)!
        XCTAssertEqual(fine.format(94_050), "94.05")
        XCTAssertEqual(fine.slotCount, 411)
        XCTAssertNil(Band(startMHz: 100, endMHz: 100, stepMHz: 0.1))
    }

    /// Numbers that do not fit a kilohertz Int are refused, not trapped on.
    func testABandOfImpossibleMegahertzIsRefused() {
        for bad in [Double.infinity, -.infinity, .nan, 1e300, -1, 1e10] {
            XCTAssertNil(Band(startMHz: bad, endMHz: 108, stepMHz: 0.1), "\(bad)")
            XCTAssertNil(Band(startMHz: 87.5, endMHz: bad, stepMHz: 0.1), "\(bad)")
            XCTAssertNil(Band(startMHz: 87.5, endMHz: 108, stepMHz: bad), "\(bad)")
        }
        XCTAssertEqual(Band(startMHz: 87.5, endMHz: 108, stepMHz: 0.1), .fm)
    }
}
