import Foundation
import Glibc
import Threads
import XCTest

/// Counts the signals delivered to the test's handler.
private nonisolated(unsafe) var delivered: Int32 = 0

final class InterruptibleTests: XCTestCase {
    /// Counts SIGUSR1 in ``delivered`` (from 0), with a handler installed without SA_RESTART, so that the
    /// signal interrupts a blocked call with EINTR. - Returns: the handler before, to put back.
    private func countSignals() -> sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in delivered += 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR1, &action, &previous), 0)
        delivered = 0
        return previous
    }
    func testACallInterruptedBySignalsIsMadeAgainAndAnyOtherFailureReturns() {
        var calls = 0
        let result = Interruptible.retry { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        XCTAssertEqual(result, 42)
        XCTAssertEqual(calls, 3)

        calls = 0
        let failed = Interruptible.retry { () -> Int in
            calls += 1
            errno = EBADF
            return -1
        }
        XCTAssertEqual(failed, -1)
        XCTAssertEqual(errno, EBADF, "errno still says why")
        XCTAssertEqual(calls, 1)
    }

    func testARealInterruptedReadIsResumed() throws {
        var previous = countSignals()
        defer { sigaction(SIGUSR1, &previous, nil) }

        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]); close(ends[1]) }
        let reader = pthread_self()
        let input = ends[1]
        let writer = Thread {
            usleep(100_000)
            pthread_kill(reader, SIGUSR1)
            usleep(100_000)
            var byte: UInt8 = 7
            _ = write(input, &byte, 1)
        }
        writer.start()
        var byte: UInt8 = 0
        let count = Interruptible.retry { read(ends[0], &byte, 1) }
        XCTAssertEqual(count, 1, "the read went on after the signal")
        XCTAssertEqual(byte, 7)
        XCTAssertEqual(delivered, 1, "the signal did arrive")
    }

    func testASleepLastsItsWholeTimeThroughASignal() {
        var previous = countSignals()
        defer { sigaction(SIGUSR1, &previous, nil) }

        let sleeper = pthread_self()
        let interrupter = Thread {
            usleep(50_000)
            pthread_kill(sleeper, SIGUSR1)
        }
        interrupter.start()
        let start = DispatchTime.now().uptimeNanoseconds
        Interruptible.sleep(microseconds: 300_000)
        let slept = DispatchTime.now().uptimeNanoseconds - start
        XCTAssertEqual(delivered, 1, "the signal did arrive")
        XCTAssertGreaterThanOrEqual(slept, 300_000_000, "the rest was slept after the signal")
        Interruptible.sleep(microseconds: -5)  // nothing to sleep: returns
    }
}
