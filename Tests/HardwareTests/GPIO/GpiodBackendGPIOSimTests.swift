import Foundation
import Hardware
import Threads
import WavedialTestSupport
import XCTest

/// The libgpiod backend against the kernel's gpio-sim (inside the gpio-vm guest).
final class GpiodBackendGPIOSimTests: XCTestCase {
    func testEdgesOfSeveralLinesArriveInOrderWithTheKernelsTimestamps() throws {
        let sim = try makeSimChip(lines: 4)
        let backend = try GpiodBackend()
        defer { backend.release() }
        let levels = try backend.request(chip: sim.name, lines: [
            GPIOLineSpec(line: 1, bias: .pullDown, role: "one"), GPIOLineSpec(line: 3, bias: .pullDown, role: "three"),
        ])
        XCTAssertEqual(levels, [false, false])
        let before = MonotonicClock.now()
        try sim.pull(1, high: true)
        try sim.pull(3, high: true)
        try sim.pull(1, high: false)
        try sim.pull(3, high: false)
        try sim.pull(3, high: true)
        let after = MonotonicClock.now()
        let edges = try edges(from: backend, count: 5)
        XCTAssertEqual(edges.map(\.line), [0, 1, 0, 1, 1])
        XCTAssertEqual(edges.map(\.direction), [.rising, .rising, .falling, .falling, .rising])
        XCTAssertEqual(edges.map(\.timestamp), edges.map(\.timestamp).sorted())
        XCTAssertTrue(edges.allSatisfy { $0.timestamp >= before && $0.timestamp <= after }, "not CLOCK_MONOTONIC")
    }

    func testBiasAndActiveLowSetTheLevelsRead() throws {
        let sim = try makeSimChip(lines: 4)
        let backend = try GpiodBackend()
        defer { backend.release() }
        let levels = try backend.request(chip: sim.name, lines: [
            GPIOLineSpec(line: 0, bias: .pullUp, role: "up"),
            GPIOLineSpec(line: 1, bias: .pullDown, role: "down"),
            GPIOLineSpec(line: 2, bias: .pullUp, isActiveLow: true, role: "up, active low"),
            GPIOLineSpec(line: 3, bias: .pullDown, isActiveLow: true, role: "down, active low"),
        ])
        XCTAssertEqual(levels, [true, false, false, true])
        XCTAssertEqual(try (0..<4).map { try sim.value($0) }, [true, false, true, false])
        // Active low: the pin going low is a rising edge of the logical level.
        try sim.pull(2, high: false)
        let edges = try edges(from: backend, count: 1)
        XCTAssertEqual(edges.map(\.line), [2])
        XCTAssertEqual(edges.map(\.direction), [.rising])
    }

    func testLineHeldByAnotherRequestIsReportedBusyAndNothingStaysRequested() throws {
        let sim = try makeSimChip(lines: 4)
        let holder = try GpiodBackend()
        defer { holder.release() }
        _ = try holder.request(chip: sim.name, lines: [GPIOLineSpec(line: 2, role: "held")])
        let backend = try GpiodBackend()
        XCTAssertThrowsError(try backend.request(chip: sim.name, lines: [
            GPIOLineSpec(line: 1, role: "free"), GPIOLineSpec(line: 2, role: "encoder.a"),
        ])) { error in
            let error = error as? GPIOError
            XCTAssertEqual(error?.code, .lineBusy)
            XCTAssertEqual(error?.errno, EBUSY)
            XCTAssertTrue(error?.message.contains("line 2 (encoder.a)") ?? false, "\(String(describing: error))")
            XCTAssertTrue(error?.message.hasSuffix("is wavediald running?") ?? false, "\(String(describing: error))")
        }
        // Line 1 was requested before the failure and released with it.
        let again = try GpiodBackend()
        defer { again.release() }
        XCTAssertEqual(try again.request(chip: sim.name, lines: [GPIOLineSpec(line: 1, bias: .pullDown, role: "free")]),
                       [false])
    }

    func testChipByPathOrLabelAndLineByName() throws {
        let sim = try makeSimChip(lines: 4, lineNames: [3: "knob-a"])
        for chip in ["/dev/\(sim.name)", sim.label] {
            let backend = try GpiodBackend()
            let levels = try backend.request(chip: chip, lines: [GPIOLineSpec(line: .name("knob-a"), bias: .pullUp, role: "a")])
            XCTAssertEqual(levels, [true], chip)
            try sim.pull(3, high: false)
            XCTAssertEqual(try edges(from: backend, count: 1).map(\.direction), [.falling], chip)
            try sim.pull(3, high: true)
            backend.release()
        }
    }

    func testAChipThatGoesAwayIsNoticedByTheNextWait() throws {
        var sim: GPIOSimChip? = try makeSimChip(lines: 1)
        let backend = try GpiodBackend(maximumWaitMilliseconds: 200)
        defer { backend.release() }
        _ = try backend.request(chip: sim!.name, lines: [GPIOLineSpec(line: 0, role: "a")])
        let failed = expectation(description: "a wait failed")
        // The reader's thread waits; this one only ends the chip (the threads GPIOBackend allows).
        nonisolated(unsafe) let reader = backend
        DispatchQueue.global().async {
            // The kernel does not wake a waiting poll when the chip goes (Linux 6.1); a later wait sees it.
            while (try? reader.waitForEdges(until: nil)) != nil {}
            failed.fulfill()
        }
        usleep(100_000)
        sim = nil
        wait(for: [failed], timeout: 10)
    }

    func testUnknownChipOrLineIsAClearError() throws {
        let sim = try makeSimChip(lines: 4)
        let backend = try GpiodBackend()
        XCTAssertThrowsError(try backend.request(chip: "no-such-chip", lines: [GPIOLineSpec(line: 0, role: "a")])) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .chipNotFound)
        }
        XCTAssertThrowsError(try backend.request(chip: sim.name, lines: [GPIOLineSpec(line: 9, role: "a")])) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .lineNotFound)
            XCTAssertEqual(($0 as? GPIOError)?.message, "\(sim.name) has no line 9 (it has 4)")
        }
        XCTAssertThrowsError(try backend.request(chip: sim.name, lines: [GPIOLineSpec(line: .name("nope"), role: "a")])) {
            XCTAssertEqual(($0 as? GPIOError)?.code, .lineNotFound)
        }
    }

    func testWakeEndsAWaitWithoutDeadline() throws {
        let sim = try makeSimChip(lines: 1)
        // Waits capped far beyond the expectation's timeout: only the wake can end this one in time.
        let backend = try GpiodBackend(maximumWaitMilliseconds: 60_000)
        defer { backend.release() }
        _ = try backend.request(chip: sim.name, lines: [GPIOLineSpec(line: 0, role: "a")])
        let returned = expectation(description: "wait returned")
        // The reader's thread waits; this one only wakes it (the threads GPIOBackend allows).
        nonisolated(unsafe) let reader = backend
        DispatchQueue.global().async {
            XCTAssertEqual(try? reader.waitForEdges(until: nil), [])
            returned.fulfill()
        }
        usleep(100_000)
        backend.wake()
        wait(for: [returned], timeout: 10)
    }
}
