import XCTest

@testable import Supervisor

final class StationHistoryTests: XCTestCase {
    func testBackAndForwardLikeABrowser() {
        var history = StationHistory()
        XCTAssertNil(history.back())
        history.visit("a")
        history.visit("b")
        history.visit("c")
        XCTAssertEqual(history.back(), "b")
        XCTAssertEqual(history.back(), "a")
        XCTAssertNil(history.back())
        XCTAssertEqual(history.forward(), "b")
        // Tuning elsewhere while back in the history drops the forward list.
        history.visit("d")
        XCTAssertNil(history.forward())
        XCTAssertEqual(history.back(), "b")
        XCTAssertEqual(history.back(), "a")
        XCTAssertEqual(history.current, "a")
    }

    func testRetuningTheSameStationIsNotANewEntryAndCapacityIsBounded() {
        var history = StationHistory(capacity: 3)
        for id in ["a", "a", "b", "c", "d"] { history.visit(id) }
        XCTAssertEqual(history.back(), "c")
        XCTAssertEqual(history.back(), "b")
        XCTAssertNil(history.back(), "a fell off the end")
    }
}
