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
    private func connection(_ splice: inout StreamSplice, _ bytes: ArraySlice<UInt8>, chunk: Int = 1400,
                            encoding: AudioEncoding = .mpeg) -> [Event] {
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
        splice.beginConnection(encoding, emit: record)
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

    /// An Ogg page with `body`, at granule position `granule` (0 for a codec header page).
    private func oggPage(granule: UInt64, body: ArraySlice<UInt8>) -> [UInt8] {
        var segments = [UInt8](repeating: 255, count: body.count / 255)
        segments.append(UInt8(body.count % 255))
        var page = Array("OggS".utf8) + [0, granule == 0 ? 2 : 0]
        page += (0..<8).map { UInt8(truncatingIfNeeded: granule >> (8 * UInt64($0))) }
        page += [1, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [UInt8(segments.count)] + segments
        return page + Array(body)
    }

    func testOggHeadersRepeatedBeforeTheBurstAreDroppedAndTheStreamContinues() {
        // Icecast starts every Ogg connection with the stream's header pages, then the burst.
        let headers = oggPage(granule: 0, body: stream[280_000..<283_000]) + oggPage(granule: 0, body: stream[283_000..<284_500])
        var splice = StreamSplice()
        _ = connection(&splice, (headers + Array(stream[0..<100_000]))[...], encoding: .ogg)
        let reconnect = headers + Array(stream[70_000..<130_000])
        XCTAssertEqual(connection(&splice, reconnect[...], encoding: .ogg), [.audio(Array(stream[100_000..<130_000]))],
                       "the headers and the repeated burst are skipped, without a discontinuity")
    }

    func testTheSameHeadersBeforeNewAudioAreANewStream() {
        // A restarted source encodes with the same settings: the same codec setup, other audio.
        let headers = oggPage(granule: 0, body: stream[280_000..<284_000])
        var splice = StreamSplice()
        _ = connection(&splice, (headers + Array(stream[0..<100_000]))[...], encoding: .ogg)
        let restarted = headers + Array(stream[200_000..<230_000])
        XCTAssertEqual(connection(&splice, restarted[...], encoding: .ogg), [.discontinuity, .audio(restarted)],
                       "the decoder needs the headers again")
    }
}
