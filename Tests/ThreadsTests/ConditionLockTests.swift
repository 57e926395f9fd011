import Foundation
import Glibc
import Threads
import XCTest

final class ConditionLockTests: XCTestCase {
    func testATimedWaitEndsAtItsDeadlineAndABroadcastEndsItEarly() {
        let condition = ConditionLock()
        let start = Self.monotonicSeconds()
        let signalled = condition.withLock { condition.wait(until: .after(seconds: 0.2)) }
        XCTAssertFalse(signalled, "nobody broadcast")
        XCTAssertGreaterThanOrEqual(Self.monotonicSeconds() - start, 0.2)

        var ready = false
        NamedThread.start(name: "wd-test") {
            usleep(50_000)
            condition.withLock {
                ready = true
                condition.broadcast()
            }
        }
        let woken = condition.withLock { () -> Bool in
            let deadline = ConditionLock.Deadline.after(seconds: 30)
            while !ready && condition.wait(until: deadline) {}
            return ready
        }
        XCTAssertTrue(woken)
    }

    func testDeadlinesCarryFractionsIntoWholeSeconds() {
        let condition = ConditionLock()
        // 0.999 s from a clock reading past .001 s needs the nanoseconds carried; an invalid timespec would return at once.
        let start = Self.monotonicSeconds()
        XCTAssertFalse(condition.withLock { condition.wait(until: .after(seconds: 0.999)) })
        XCTAssertGreaterThanOrEqual(Self.monotonicSeconds() - start, 0.999)
    }

    func testThreadNamesReachTheKernel() {
        let named = ConditionLock()
        var name: String?
        NamedThread.start(name: "wd-a-long-thread-name") {
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            named.withLock {
                name = comm
                named.broadcast()
            }
        }
        let seen = named.withLock { () -> String? in
            let deadline = ConditionLock.Deadline.after(seconds: 30)
            while name == nil && named.wait(until: deadline) {}
            return name
        }
        XCTAssertEqual(seen, "wd-a-long-threa\n", "the kernel keeps 15 bytes")
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
