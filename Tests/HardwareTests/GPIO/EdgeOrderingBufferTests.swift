import Hardware
import XCTest

final class EdgeOrderingBufferTests: XCTestCase {
    func testEdgesReadLateAreReleasedInTimestampOrderOnceTheirWindowHasPassed() {
        var buffer = EdgeOrderingBuffer(windowNanoseconds: 100)
        // Line 1's edge at 20 is read before line 0's edge at 10 (its IRQ thread ran late).
        buffer.add([GPIOEdge(line: 1, .rising, at: 20)])
        XCTAssertEqual(buffer.release(at: 50), [])
        buffer.add([GPIOEdge(line: 0, .rising, at: 10), GPIOEdge(line: 0, .falling, at: 30)])
        XCTAssertEqual(buffer.nextRelease, 110)
        XCTAssertEqual(buffer.release(at: 120).map(\.timestamp), [10, 20])
        XCTAssertEqual(buffer.release(at: 130).map(\.timestamp), [30])
        XCTAssertNil(buffer.nextRelease)
    }

    func testSameTimestampsKeepTheirReadOrder() {
        var buffer = EdgeOrderingBuffer(windowNanoseconds: 0)
        buffer.add([GPIOEdge(line: 0, .rising, at: 5), GPIOEdge(line: 1, .rising, at: 5)])
        buffer.add([GPIOEdge(line: 2, .rising, at: 5)])
        XCTAssertEqual(buffer.release(at: 5).map(\.line), [0, 1, 2])
    }

    func testCompleteTimeStopsBeforeTheOldestHeldEdgeAndTheWindow() {
        var buffer = EdgeOrderingBuffer(windowNanoseconds: 100)
        XCTAssertEqual(buffer.complete(at: 1_000), 900)
        buffer.add([GPIOEdge(line: 0, .rising, at: 850)])
        XCTAssertEqual(buffer.complete(at: 1_000), 849)
        _ = buffer.release(at: 1_000)
        XCTAssertEqual(buffer.complete(at: 1_000), 900)
    }
}
