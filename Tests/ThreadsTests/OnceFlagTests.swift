import Threads
import XCTest

final class OnceFlagTests: XCTestCase {
    func testAFlagSetOnAnotherThreadIsSeenWithWhatThatThreadWroteBefore() {
        let flag = OnceFlag()
        XCTAssertFalse(flag.isSet)
        final class Box: @unchecked Sendable { var value = 0 }
        let written = Box()
        let done = DispatchSemaphore(value: 0)
        NamedThread.start(name: "wd-test") {
            written.value = 42
            flag.set()
            flag.set()  // again: still set
            done.signal()
        }
        while !flag.isSet {}
        XCTAssertEqual(written.value, 42)
        done.wait()
        XCTAssertTrue(flag.isSet)
    }
}
