import CurlSupport
import Foundation
import WavedialTestSupport
import XCTest

/// A cancel from another thread ends a transfer that waits on a quiet connection at once, not at
/// libcurl's next once-a-second progress call (before the fix a station-switch storm left about
/// a hundred network threads winding down).
final class CurlCancelTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws { server = try MisbehavingServer() }
    override func tearDown() { server.stop() }

    func testCancelEndsAQuietTransferBeforeTheNextProgressCall() throws {
        for _ in 0..<3 {
            let easy = try CurlEasy()
            try easy.set(.url(server.url("/stall.mp3")))  // a burst, then the connection stays open and quiet
            let transfer = Transfer()
            // The transfer runs on its own thread; this one only cancels it (CurlEasy's one cross-thread call).
            nonisolated(unsafe) let transferred = easy
            Thread.detachNewThread { transfer.run(transferred) }
            // Wait for the quiet part: the burst is in and libcurl has just made a progress call.
            let deadline = Date().addingTimeInterval(10)
            while transfer.bytes < 65_536 && Date() < deadline { usleep(10_000) }
            usleep(300_000)
            let before = transfer.lastProgress
            while transfer.lastProgress == before && Date() < deadline { usleep(2_000) }
            usleep(50_000)
            easy.cancel()
            // The next progress call would come about 0.95 s later.
            if transfer.ended.wait(timeout: .now() + 0.6) == .timedOut {
                XCTFail("the transfer ended only with a progress call")
                _ = transfer.ended.wait(timeout: .now() + 5)
            }
            XCTAssertEqual((transfer.failure as? CurlError)?.isAborted, true, "\(String(describing: transfer.failure))")
        }
    }
}

/// One transfer on its own thread, observed from the test's.
private final class Transfer: @unchecked Sendable {
    private let lock = NSLock()
    private var received = 0
    private var progressAt: Date?
    private var error: Error?
    let ended = DispatchSemaphore(value: 0)

    var bytes: Int { lock.withLock { received } }
    var lastProgress: Date? { lock.withLock { progressAt } }
    var failure: Error? { lock.withLock { error } }

    func run(_ easy: CurlEasy) {
        do {
            try easy.perform(onProgress: { [self] in
                lock.withLock { progressAt = Date() }
                return true
            }, onData: { [self] chunk in
                lock.withLock { received += chunk.count }
                return true
            })
        } catch {
            lock.withLock { self.error = error }
        }
        ended.signal()
    }
}
