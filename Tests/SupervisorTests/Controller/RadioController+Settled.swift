import XCTest
@testable import Supervisor

extension RadioController {
    /// Waits until the store has written every change handed to it and the controller has heard back
    /// (a favorite's band rebuilt): what a listener's next press, a moment later, finds.
    func waitForWrites() {
        XCTAssertTrue(store.flush(timeout: 5), "the store wrote within 5 s")
        queue.sync {}
    }
}
