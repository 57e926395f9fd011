import XCTest

@testable import WavedialCore

final class StatedFrequencyTests: XCTestCase {
    func testFrequenciesStatedInNames() {
        let cases: [(String, Int?)] = [
            ("Radio Bob 101.5", 101_500),
            ("FM 98,7", 98_700),
            ("101.1FM", 101_100),
            ("Power 106.1 MHz", 106_100),
            ("Star FM Maximum Rock Berlin 87.9", 87_900),
            ("KISS 92.5 FM", 92_500),
            ("FM 98", 98_000),
            ("Hit Radio 100 FM", 100_000),
            ("Radio 95.45", 95_500),  // a 50 kHz station snapped to the 0.1 MHz grid (round half up)
            ("Radio 88.0", 88_000),
        ]
        for (name, expected) in cases {
            XCTAssertEqual(StatedFrequency.find(in: name, on: .fm), expected, name)
        }
    }

    func testNumbersThatAreNotFrequencies() {
        for name in ["Radio 1989", "24/7 Hits", "Top 100", "Radio 1", "Dance 2000s", "Mix 12.5", "1.FM - Amsterdam Trance",
                     "Hits 99.9%", "Radio 1.0.2", "Version 100.12.3", "Since 01.02.1999", "Radio 110.5", "KSUH 1450 AM",
                     "Radio 90", "Radio 100.000 Hits", "Radio 24/7 101/5"] {
            XCTAssertNil(StatedFrequency.find(in: name, on: .fm), name)
        }
    }

    func testTagsAreConsultedAfterTheName() {
        XCTAssertEqual(StatedFrequency.find(name: "Antenne", tags: "pop,fm 94.3,hits", on: .fm), 94_300)
        XCTAssertEqual(StatedFrequency.find(name: "Antenne 102.2", tags: "fm 94.3", on: .fm), 102_200)
        XCTAssertNil(StatedFrequency.find(name: "Antenne", tags: "pop,80s", on: .fm))
    }

    func testOnlyFrequenciesInsideTheConfiguredBand() {
        let japan = Band(startKHz: 76_000, endKHz: 95_000, stepKHz: 100)!
        XCTAssertEqual(StatedFrequency.find(in: "J-Wave 81.3", on: japan), 81_300)
        XCTAssertNil(StatedFrequency.find(in: "Radio Bob 101.5", on: japan))
        XCTAssertEqual(StatedFrequency.find(in: "Radio Bob 101.5 / 88.2", on: japan), 88_200)
    }
}
