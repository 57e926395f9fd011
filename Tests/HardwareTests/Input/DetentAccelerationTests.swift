import Hardware
import XCTest

final class DetentAccelerationTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    private func stepsForDetents(every interval: UInt64, count: Int = 5, direction: Int = 1,
                                 _ acceleration: DetentAcceleration = DetentAcceleration()) -> [Int] {
        var acceleration = acceleration
        return (0..<count).map { acceleration.steps(for: direction, at: 1_000 * ms + UInt64($0) * interval) }
    }

    func testSlowDetentsMoveOneStepEach() {
        XCTAssertEqual(stepsForDetents(every: 200 * ms), [1, 1, 1, 1, 1])
        XCTAssertEqual(stepsForDetents(every: 1_000 * ms, direction: -1), [-1, -1, -1, -1, -1])
    }

    func testFasterDetentsMoveMoreStepsGrowingWithSpeed() {
        XCTAssertEqual(stepsForDetents(every: 100 * ms), [1, 2, 2, 2, 2])
        XCTAssertEqual(stepsForDetents(every: 50 * ms), [1, 4, 4, 4, 4])
        XCTAssertEqual(stepsForDetents(every: 20 * ms, direction: -1), [-1, -10, -10, -10, -10])
        var previous = 1
        for interval in stride(from: 199, through: 1, by: -3) {
            let steps = stepsForDetents(every: UInt64(interval) * ms, count: 2)[1]
            XCTAssertGreaterThanOrEqual(steps, previous, "\(interval) ms")
            previous = steps
        }
    }

    func testStepsPerDetentAreCapped() {
        XCTAssertEqual(stepsForDetents(every: 5 * ms, count: 2), [1, 10])
        XCTAssertEqual(stepsForDetents(every: 5 * ms, count: 2, DetentAcceleration(maximumStepsPerDetent: 3)), [1, 3])
    }

    func testReversalStartsAgainAtOneStep() {
        var acceleration = DetentAcceleration()
        XCTAssertEqual(acceleration.steps(for: 1, at: 1_000 * ms), 1)
        XCTAssertEqual(acceleration.steps(for: 1, at: 1_050 * ms), 4)
        XCTAssertEqual(acceleration.steps(for: -1, at: 1_100 * ms), -1)
        XCTAssertEqual(acceleration.steps(for: -1, at: 1_150 * ms), -4)
    }

    func testSeveralDetentsDecodedAtOnceShareTheInterval() {
        var acceleration = DetentAcceleration()
        XCTAssertEqual(acceleration.steps(for: 1, at: 1_000 * ms), 1)
        // Two detents in 100 ms: 50 ms each → four steps each.
        XCTAssertEqual(acceleration.steps(for: 2, at: 1_100 * ms), 8)
    }

    func testSwitchedOffEveryDetentIsOneStep() {
        XCTAssertEqual(stepsForDetents(every: 10 * ms, DetentAcceleration(isEnabled: false)), [1, 1, 1, 1, 1])
    }
}
