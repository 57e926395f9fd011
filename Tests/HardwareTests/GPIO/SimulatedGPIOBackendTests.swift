import Foundation
import Hardware
import Logging
import Threads
import XCTest

final class SimulatedGPIOBackendTests: XCTestCase {
    private let lines = [GPIOLineSpec(line: 17, role: "encoder.a"), GPIOLineSpec(line: 27, role: "encoder.b"),
                         GPIOLineSpec(line: 5, isActiveLow: true, role: "play")]

    func testLevelsSetBecomeOrderedEdgesAndUnchangedLevelsNone() throws {
        let backend = SimulatedGPIOBackend(idleLevels: ["encoder.a": true, "encoder.b": true])
        XCTAssertEqual(try backend.request(chip: "sim", lines: lines), [true, true, false])
        try backend.set("play", to: true)
        try backend.set("play", to: true)
        try backend.set("encoder.a", to: false)
        let edges = try backend.waitForEdges(until: 0)
        XCTAssertEqual(edges.map(\.line), [2, 0])
        XCTAssertEqual(edges.map(\.direction), [.rising, .falling])
        XCTAssertLessThanOrEqual(edges[0].timestamp, edges[1].timestamp)
        XCTAssertEqual(try backend.waitForEdges(until: 0), [])
    }

    func testTurningWalksTheGrayCodeForwardsAndBackwards() throws {
        let backend = SimulatedGPIOBackend(idleLevels: ["encoder.a": true, "encoder.b": true])
        _ = try backend.request(chip: "sim", lines: lines)
        try backend.turn(1, stepsPerDetent: .four)
        try backend.turn(-1, stepsPerDetent: .two)
        let edges = try backend.waitForEdges(until: 0)
        // 11 → 01 → 00 → 10 → 11, then back 11 → 10 → 00.
        XCTAssertEqual(edges.map { "\($0.line)\($0.level ? 1 : 0)" }, ["00", "10", "01", "11", "10", "00"])
    }

    func testAScheduledSignalIsHandedOutInRealTimeAndABadRoleQueuesNothing() throws {
        let backend = SimulatedGPIOBackend(idleLevels: ["encoder.a": true, "encoder.b": true])
        _ = try backend.request(chip: "sim", lines: lines)
        XCTAssertThrowsError(try backend.schedule([.init(role: "encoder.a", level: false, afterNanoseconds: 0),
                                                   .init(role: "volume", level: true, afterNanoseconds: 0)])) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .lineNotFound)
        }
        XCTAssertEqual(try backend.waitForEdges(until: 0), [], "nothing of the refused signal")
        let start = MonotonicClock.now()
        try backend.schedule([.init(role: "encoder.a", level: false, afterNanoseconds: 0),
                              .init(role: "encoder.b", level: false, afterNanoseconds: 5_000_000_000)])
        // The second edge lies 5 s ahead: only the first is due.
        let first = try backend.waitForEdges(until: 0)
        XCTAssertEqual(first.map(\.line), [0])
        XCTAssertGreaterThanOrEqual(first[0].timestamp, start)
        XCTAssertLessThan(backend.completeUntil, first[0].timestamp + 5_000_000_000, "not complete past the held edge")
        // A part sent next continues the signal after its last edge.
        try backend.schedule([.init(role: "play", level: true, afterNanoseconds: 1_000)])
        XCTAssertEqual(try backend.waitForEdges(until: 0), [])
        backend.release()
    }

    func testASignalReachingMoreThanAnHourAheadIsRefusedAndQueuesNothing() throws {
        let backend = SimulatedGPIOBackend()
        _ = try backend.request(chip: "sim", lines: lines)
        XCTAssertThrowsError(try backend.schedule([.init(role: "play", level: true, afterNanoseconds: .max)])) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .system)
        }
        // Parts of a minute each, one after the other: the sixty-first would end past the hour.
        let minute: UInt64 = 60_000_000_000
        for part in 0..<60 { try backend.schedule([.init(role: "play", level: part % 2 == 0, afterNanoseconds: minute - 1)]) }
        XCTAssertThrowsError(try backend.schedule([.init(role: "play", level: true, afterNanoseconds: minute)]))
        XCTAssertEqual(try backend.waitForEdges(until: 0), [], "nothing is due yet, nothing of the refused parts queued")
        backend.release()
    }

    func testUnknownRoleAndDuplicateLineAreErrors() throws {
        let backend = SimulatedGPIOBackend()
        _ = try backend.request(chip: "sim", lines: lines)
        XCTAssertThrowsError(try backend.set("volume", to: true)) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .lineNotFound)
        }
        XCTAssertThrowsError(try backend.request(chip: "sim", lines: lines + [GPIOLineSpec(line: 5, role: "again")]))
    }

    func testInputReaderDecodesTheSimulatedKnobAndButtonsOnItsThread() throws {
        var settings = InputSettings()
        settings.backend = .simulated
        settings.encoder.acceleration.isEnabled = false
        settings.longPressNanoseconds = 100_000_000
        let backend = SimulatedGPIOBackend(idleLevels: ["encoder.a": true, "encoder.b": true])
        let collector = InputEventCollector()
        let reader = InputReader(settings: settings, backend: backend, logger: Logger(label: "test.gpio"),
                                 handlers: collector.handlers)
        try reader.start()
        defer { reader.stop() }
        try backend.turn(3, stepsPerDetent: .four)
        try backend.turn(-1, stepsPerDetent: .four)
        try backend.set("favorite", to: true)
        // The long press and the release come from the reader's own deadlines, not from edges.
        _ = collector.wait { actions($0, of: "favorite").contains(.long) }
        try backend.set("favorite", to: false)
        let events = collector.wait { actions($0, of: "favorite").contains(.release) }
        XCTAssertEqual(detents(events), [1, 1, 1, -1])
        XCTAssertEqual(actions(events, of: "favorite"), [.press, .long, .release])
        XCTAssertEqual(collector.receivedEdges.count, 18)
    }

    func testInputReaderCanBeStoppedAndStartedAgain() throws {
        var settings = InputSettings()
        settings.encoder.acceleration.isEnabled = false
        let backend = SimulatedGPIOBackend(idleLevels: ["encoder.a": true, "encoder.b": true])
        let collector = InputEventCollector()
        let reader = InputReader(settings: settings, backend: backend, logger: Logger(label: "test.gpio"),
                                 handlers: collector.handlers)
        try reader.start()
        try backend.turn(1, stepsPerDetent: .four)
        _ = collector.wait { detents($0).count == 1 }
        reader.stop()
        try reader.start()
        defer { reader.stop() }
        try backend.turn(-2, stepsPerDetent: .four)
        XCTAssertEqual(detents(collector.wait { detents($0).count == 3 }), [1, -1, -1])
    }
}
