import Threads
import XCTest

final class BackoffTests: XCTestCase {
    /// A station's reconnect: fast while the outage is young, then easing off to the cap.
    func testFastRetriesFirstThenBackOffToTheCap() {
        let policy = Backoff()
        let early = (0..<8).map { policy.delay(attempt: $0, outage: 1) }
        XCTAssertLessThan(early[0], 0.5)
        XCTAssertEqual(early.prefix(3).reduce(0, +), 0.1 + 0.2 + 0.25, accuracy: 1e-9, "first retries within a second")
        XCTAssertEqual(early.max(), 0.25)
        XCTAssertEqual(policy.delay(attempt: 3, outage: 120), 0.8, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(attempt: 30, outage: 120), 5)
        XCTAssertEqual(policy.delay(attempt: Int.max, outage: 120), 5, "no overflow however many tries")
        XCTAssertEqual(policy.delay(attempt: -1, outage: 1), 0.1)
    }

    /// A failed subsystem's restart: doubling up to the maximum, counted by the caller's own copy.
    func testDoublesUpToTheCapAndStartsAfreshAfterAReset() {
        var backoff = Backoff(initial: 1, maximum: 10)
        XCTAssertEqual((0..<6).map { _ in backoff.next() }, [1, 2, 4, 8, 10, 10])
        XCTAssertEqual(backoff.attempt, 6)
        backoff.reset()
        XCTAssertEqual(backoff.next(), 1)
        XCTAssertEqual(Backoff(initial: 1, maximum: 10).delay(attempt: 2, outage: 0), 4, "no fast window")
    }
}
