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

    func testClearDropsDataAndBumpsGenerationButCarriesTheLatestTitleAndEncodingToTheLiveAudio() {
        let ring = ByteRing(capacity: 1000)
        _ = write(ring, [1, 2, 3])
        ring.mark(.encoding(.adts))
        ring.mark(.title("older"))
        _ = write(ring, [4])
        ring.mark(.discontinuity)
        ring.mark(.title("latest"))
        _ = write(ring, [5])
        let generation = ring.generation
        ring.clear()
        XCTAssertEqual(ring.count, 0)
        XCTAssertNotEqual(ring.generation, generation)
        _ = write(ring, [9])
        // What comes after the jump is the same stream: its encoding and its title still hold.
        XCTAssertEqual(ring.reachedMarks(), [.encoding(.adts), .title("latest")])
        XCTAssertEqual(read(ring, 10), [9])
        XCTAssertEqual(ring.markCount, 0)
    }

    func testAMarkOfTheSameKindAtTheSameByteReplacesTheEarlierOne() {
        let ring = ByteRing(capacity: 1000)
        _ = write(ring, [0, 0])
        // Nothing written in between (audio being dropped): only the newest of each kind can ever apply.
        for index in 0..<100_000 {
            ring.mark(.title("title \(index)"))
            if index % 1000 == 0 {
                ring.mark(.discontinuity)
                ring.mark(.encoding(index % 2000 == 0 ? .mpeg : .adts))
            }
        }
        XCTAssertEqual(ring.markCount, 3)
        _ = read(ring, 2)
        XCTAssertEqual(ring.reachedMarks(), [.title("title 99999"), .discontinuity, .encoding(.adts)])
    }

    func testATitleShorterThanTheSpanIsReplacedByTheNewerAtTheNewerPosition() {
        let ring = ByteRing(capacity: 10_000)
        ring.mark(.title("heard"), supersedingTitleWithin: 100)
        _ = write(ring, [UInt8](repeating: 0, count: 100))
        ring.mark(.title("too short"), supersedingTitleWithin: 100)
        _ = write(ring, [UInt8](repeating: 0, count: 99))
        ring.mark(.title("latest"), supersedingTitleWithin: 100)
        _ = write(ring, [UInt8](repeating: 0, count: 10))
        XCTAssertEqual(ring.markCount, 2)
        XCTAssertEqual(ring.reachedMarks(), [.title("heard")])
        XCTAssertEqual(ring.nextMarkPosition, 199, "the newer title starts where it was sent")
        _ = read(ring, 199)
        XCTAssertEqual(ring.reachedMarks(), [.title("latest")])
    }

    func testMarksAreBoundedAndAFullRingOfMarksWaitsForTheReaderOrRefuses() {
        let ring = ByteRing(capacity: 100_000)
        var written = 0
        // A stream that reconnects after every byte: a discontinuity per byte.
        while [UInt8(1)].withUnsafeBytes({ ring.writeIfRoom($0) }) {
            ring.mark(.discontinuity)
            written += 1
            XCTAssertLessThan(written, 100_000)
        }
        XCTAssertLessThanOrEqual(ring.markCount, ByteRing.maximumMarks)
        XCTAssertGreaterThan(ring.markCount, ByteRing.maximumMarks - 4)
        XCTAssertEqual(ring.count, written, "past the bound nothing more is taken")
        XCTAssertTrue(ring.waitUntilStored(atLeast: 50_000, timeout: 0), "a ring full of marks is ready to be read")

        let done = expectation(description: "a waiting write goes on once the reader passed marks")
        DispatchQueue.global().async {
            XCTAssertEqual(self.write(ring, [2]), .written)
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(ring.count, written, "the writer waits while the marks are at their bound")
        _ = read(ring, 10)
        XCTAssertEqual(ring.reachedMarks().count, 10)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(ring.count, written - 10 + 1)
    }

    func testMarksStayBoundedWhileTheReaderPassesThemOneByOne() {
        // A reader that passes the marks one at a time, with the ring at its bound all along.
        let ring = ByteRing(capacity: 1 << 20)
        var reached = 0
        for _ in 0..<200_000 {
            if ![UInt8(1)].withUnsafeBytes({ ring.writeIfRoom($0) }) {
                _ = read(ring, 1)
                reached += ring.reachedMarks().count
                XCTAssertTrue([UInt8(1)].withUnsafeBytes { ring.writeIfRoom($0) })
            }
            ring.mark(.discontinuity)
        }
        XCTAssertLessThanOrEqual(ring.markCount, ByteRing.maximumMarks)
        XCTAssertEqual(reached + ring.markCount, 200_000)
    }

    func testWaitUntilStored() {
        let ring = ByteRing(capacity: 1000)
        XCTAssertFalse(ring.waitUntilStored(atLeast: 10, timeout: 0.01))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { _ = self.write(ring, [UInt8](repeating: 0, count: 10)) }
        XCTAssertTrue(ring.waitUntilStored(atLeast: 10, timeout: 5))
    }
}
