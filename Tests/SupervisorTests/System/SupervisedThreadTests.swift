import Foundation
import Logging
import Threads
import XCTest
@testable import Supervisor

final class SupervisedThreadTests: XCTestCase {
    private struct Failure: Error {}

    /// A subsystem that ran again and then fails is retried at the first delay, not where the
    /// back-off of its earlier outage had grown to.
    func testRestartsWithBackoffThatStartsAfreshAfterARecovery() {
        let starts = Box<[Date]>([])
        let reports = Box<[Bool]>([])
        var logger = Logger(label: "test.supervised")
        logger.logLevel = .critical
        // Six failures: 0.02 s doubling to 0.64 s; without the reset the next wait would be 1.28 s.
        let supervised = SupervisedThread(name: "wd-test", logger: logger, backoff: Backoff(initial: 0.02, maximum: 60),
                                          onFailure: { error in reports.update { $0.append(error == nil) } }) { thread in
            starts.update { $0.append(Date()) }
            if starts.value.count == 7 { thread.recovered() }
            if starts.value.count < 8 { throw Failure() }
            while thread.sleep(0.01) {}
        }
        supervised.start()
        defer { supervised.stop() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while starts.value.count < 8 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(starts.value.count, 8)
        XCTAssertEqual(reports.value, [false, false, false, false, false, false, true, false], "each failure, and the recovery")
        let times = starts.value
        XCTAssertGreaterThanOrEqual(times[6].timeIntervalSince(times[5]), 0.64, "the back-off grew while it kept failing")
        XCTAssertLessThan(times[7].timeIntervalSince(times[6]), 1.0, "and started afresh after the recovery")
    }
}
