import XCTest
@testable import Audio

final class ByteRingTests: XCTestCase {
    private func write(_ ring: ByteRing, _ bytes: [UInt8], waitingAbove limit: Int? = nil) -> ByteRing.WriteResult {
        bytes.withUnsafeBytes { ring.write($0, waitingAbove: limit) }
    }

    private func read(_ ring: ByteRing, _ count: Int, timeout: Double = 0) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { ring.read(into: $0, timeout: timeout) }
        return Array(buffer.prefix(got))
    }

    func testKeepsOrderAcrossWrapAroundAndGrowth() {
        let ring = ByteRing(capacity: 10_000)
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var next: UInt8 = 0
        for round in 0..<200 {
            let chunk = (0..<(round % 37 + 1)).map { _ -> UInt8 in next &+= 1; return next }
            XCTAssertEqual(write(ring, chunk), .written)
            expected += chunk
            received += read(ring, round % 23 + 1)
        }
        received += read(ring, 10_000)
        XCTAssertEqual(received, expected)
        XCTAssertEqual(ring.count, 0)
        XCTAssertEqual(ring.readPosition, Int64(expected.count))
    }

    func testWriterWaitsAboveLimitUntilReaderMakesRoom() {
        let ring = ByteRing(capacity: 1000)
        XCTAssertEqual(write(ring, [UInt8](repeating: 1, count: 100), waitingAbove: 100), .written)
        let done = expectation(description: "blocked write finishes")
        DispatchQueue.global().async {
            XCTAssertEqual(self.write(ring, [2, 3], waitingAbove: 100), .written)
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(ring.count, 100, "the writer must wait while the ring is at its limit")
        XCTAssertEqual(read(ring, 50).count, 50)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(Array(read(ring, 100).suffix(2)), [2, 3])
    }

    func testCloseWakesWaitersAndRefusesWrites() {
        let ring = ByteRing(capacity: 4)
        XCTAssertEqual(write(ring, [1, 2, 3, 4]), .written)
        let done = expectation(description: "writer woken")
        DispatchQueue.global().async {
            XCTAssertEqual(self.write(ring, [5]), .closed)
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.05)
        ring.close()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(read(ring, 10), [1, 2, 3, 4], "what was stored is still readable")
        XCTAssertEqual(read(ring, 10, timeout: 1), [])
    }

    func testWriteIfRoomRefusesWhatDoesNotFit() {
        let ring = ByteRing(capacity: 100)
        XCTAssertTrue([UInt8](repeating: 0, count: 60).withUnsafeBytes { ring.writeIfRoom($0, limit: 80) })
        XCTAssertFalse([UInt8](repeating: 0, count: 30).withUnsafeBytes { ring.writeIfRoom($0, limit: 80) })
        XCTAssertEqual(ring.count, 60)
    }

    func testMarksAreReachedAtTheirBytePosition() {
        let ring = ByteRing(capacity: 1000)
        ring.mark(.title("first"))
        XCTAssertEqual(write(ring, [UInt8](repeating: 0, count: 100)), .written)
        ring.mark(.discontinuity)
        XCTAssertEqual(write(ring, [UInt8](repeating: 0, count: 100)), .written)
        XCTAssertEqual(ring.reachedMarks(), [.title("first")])
        XCTAssertEqual(ring.nextMarkPosition, 100)
        _ = read(ring, 99)
        XCTAssertEqual(ring.reachedMarks(), [])
        _ = read(ring, 1)
        XCTAssertEqual(ring.reachedMarks(), [.discontinuity])
        XCTAssertNil(ring.nextMarkPosition)
    }

    func testClearDropsDataAndTitlesAndBumpsGeneration() {
        let ring = ByteRing(capacity: 1000)
        _ = write(ring, [1, 2, 3])
        ring.mark(.title("stale"))
        _ = write(ring, [4])
        let generation = ring.generation
        ring.clear()
        XCTAssertEqual(ring.count, 0)
        XCTAssertNotEqual(ring.generation, generation)
        _ = write(ring, [9])
        XCTAssertEqual(read(ring, 10), [9])
        XCTAssertEqual(ring.reachedMarks(), [])
    }

    func testWaitUntilStored() {
        let ring = ByteRing(capacity: 1000)
        XCTAssertFalse(ring.waitUntilStored(atLeast: 10, timeout: 0.01))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { _ = self.write(ring, [UInt8](repeating: 0, count: 10)) }
        XCTAssertTrue(ring.waitUntilStored(atLeast: 10, timeout: 5))
    }
}
