import Glibc
import XCTest
@testable import Audio

final class Int16FullScaleTests: XCTestCase {
    func testRoundsToTheNearestTiesToEvenAsLrintf() {
        // Every tie between two 16-bit steps and a spread of values between them, across the whole range.
        var value: Float = -1
        while value < 1 {
            let expected = Int16(clamping: lrintf(value * 32768))
            XCTAssertEqual(Int16(fullScale: value), expected, "\(value)")
            value += 0.25 / 32768 + 1e-9
        }
        XCTAssertEqual(Int16(fullScale: 0.5 / 32768), 0)
        XCTAssertEqual(Int16(fullScale: 1.5 / 32768), 2)
        XCTAssertEqual(Int16(fullScale: -2.5 / 32768), -2)
    }

    func testClipsWhatOvershootsFullScale() {
        XCTAssertEqual(Int16(fullScale: 1), Int16.max)
        XCTAssertEqual(Int16(fullScale: 7.5), Int16.max)
        XCTAssertEqual(Int16(fullScale: -1), Int16.min)
        XCTAssertEqual(Int16(fullScale: -1e30), Int16.min)
        XCTAssertEqual(Int16(fullScale: .infinity), Int16.max)
        XCTAssertEqual(Int16(fullScale: -.infinity), Int16.min)
    }

    func testNaNIsSilence() {
        XCTAssertEqual(Int16(fullScale: .nan), 0)
        XCTAssertEqual(Int16(fullScale: -.nan), 0)
    }
}
