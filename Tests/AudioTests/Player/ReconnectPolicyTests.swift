import XCTest
@testable import Audio

final class ReconnectPolicyTests: XCTestCase {
    func testFastRetriesFirstThenBackOffToTheCap() {
        let policy = ReconnectPolicy()
        let early = (0..<8).map { policy.delay(attempt: $0, outage: 1) }
        XCTAssertLessThan(early[0], 0.5)
        XCTAssertEqual(early.prefix(3).reduce(0, +), 0.1 + 0.2 + 0.25, accuracy: 1e-9, "first retries within a second")
        XCTAssertEqual(early.max(), 0.25)
        XCTAssertEqual(policy.delay(attempt: 3, outage: 120), 0.8, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 30, outage: 120), 5)
    }
}
