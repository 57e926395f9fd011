import XCTest
@testable import Audio

final class StreamSpliceTests: XCTestCase {
    /// Deterministic bytes with no repeats worth speaking of (a xorshift sequence).
    private let stream: [UInt8] = {
        var state: UInt32 = 0x9E37_79B9
        return (0..<300_000).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    private enum Event: Equatable {
        case discontinuity
        case audio([UInt8])
    }

    /// Runs one connection's bytes through the splice in `chunk`-sized pieces; returns what came out.
    private func connection(_ splice: inout StreamSplice, _ bytes: ArraySlice<UInt8>, chunk: Int = 1400) -> [Event] {
        var events: [Event] = []
        func record(_ output: StreamSplice.Output) {
            switch output {
            case .discontinuity:
                events.append(.discontinuity)
            case .audio(let audio):
                if case .audio(let previous)? = events.last {
                    events[events.count - 1] = .audio(previous + Array(audio))
                } else {
                    events.append(.audio(Array(audio)))
                }
            }
        }
        splice.beginConnection(emit: record)
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = min(bytes.endIndex, offset + chunk)
            Array(bytes[offset..<end]).withUnsafeBytes { splice.push($0, emit: record) }
            offset = end
        }
        splice.endConnection(emit: record)
        return events
    }

    func testFirstConnectionPassesThroughAfterADiscontinuity() {
        var splice = StreamSplice()
        XCTAssertEqual(connection(&splice, stream[0..<50_000]), [.discontinuity, .audio(Array(stream[0..<50_000]))])
    }

    func testReconnectBurstOverlapIsSkippedWithoutADiscontinuity() {
        for chunk in [1, 977, 4096, 70_000] {
            var splice = StreamSplice()
            _ = connection(&splice, stream[0..<100_000], chunk: 1400)
            // The new burst starts 64 KB before where the old connection stopped.
            XCTAssertEqual(connection(&splice, stream[(100_000 - 65_536)..<150_000], chunk: chunk),
                           [.audio(Array(stream[100_000..<150_000]))], "chunk \(chunk)")
        }
    }

    func testBurstOlderThanTheProbeStillSkipsEverythingRepeated() {
        var splice = StreamSplice()
        _ = connection(&splice, stream[0..<100_000])
        // A connection that only repeats (the server is behind): nothing new comes out, and no discontinuity.
        XCTAssertEqual(connection(&splice, stream[50_000..<100_000]), [])
        XCTAssertEqual(connection(&splice, stream[90_000..<120_000]), [.audio(Array(stream[100_000..<120_000]))])
    }

    func testUnrelatedOrAmbiguousStreamsStartAfterADiscontinuity() {
        var splice = StreamSplice()
        _ = connection(&splice, stream[0..<100_000])
        XCTAssertEqual(connection(&splice, stream[200_000..<260_000]), [.discontinuity, .audio(Array(stream[200_000..<260_000]))])

        var periodic = StreamSplice()
        let pattern = Array(stream[0..<5000])
        let repeated = Array((0..<20).map { _ in pattern }.joined())
        _ = connection(&periodic, repeated[...])
        XCTAssertEqual(connection(&periodic, repeated[10_000..<30_000]).first, .discontinuity, "several matches: no guessing")
    }

    func testShortConnectionEndingWhileProbingKeepsItsBytes() {
        var splice = StreamSplice()
        _ = connection(&splice, stream[0..<100_000])
        XCTAssertEqual(connection(&splice, stream[200_000..<201_000]), [.discontinuity, .audio(Array(stream[200_000..<201_000]))])
    }

    func testHeadersRepeatedBeforeTheBurstAreDroppedAndTheStreamContinues() {
        // An Ogg or FLAC server starts every connection with the stream's headers, then the burst.
        var splice = StreamSplice()
        let headers = Array(stream[280_000..<280_600])
        _ = connection(&splice, (headers + Array(stream[0..<100_000]))[...])
        let reconnect = headers + Array(stream[70_000..<130_000])
        XCTAssertEqual(connection(&splice, reconnect[...]), [.audio(Array(stream[100_000..<130_000]))],
                       "the headers and the repeated burst are skipped, without a discontinuity")
    }
}
