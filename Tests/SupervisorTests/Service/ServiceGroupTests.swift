import Foundation
import Logging
import XCTest

@testable import Supervisor

/// The daemon's one lifecycle: services start in order, stop in reverse under one deadline; an essential
/// service that cannot start stops the start, one that is not essential is left out.
final class ServiceGroupTests: XCTestCase {
    private final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    private struct Refused: Error {}

    private final class Part: ApplianceService {
        let threadNames: String
        let isEssential: Bool
        private let journal: Journal
        private let failsToStart: Bool
        /// How long its threads take to end once asked.
        private let ending: Double
        private(set) var givenTimeout: Double?

        init(_ name: String, _ journal: Journal, essential: Bool = true, failsToStart: Bool = false, ending: Double = 0) {
            threadNames = name
            isEssential = essential
            self.journal = journal
            self.failsToStart = failsToStart
            self.ending = ending
        }

        func start() throws {
            if failsToStart { throw Refused() }
            journal.add("start \(threadNames)")
        }

        func stop(waitingUpTo timeout: Double) -> Bool {
            givenTimeout = timeout
            journal.add("stop \(threadNames)")
            let ended = DispatchSemaphore(value: 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + ending) { ended.signal() }
            return ended.wait(timeout: .now() + timeout) == .success
        }
    }

    private let logger = Logger(label: "test")

    func testServicesStartInOrderAndStopInReverse() throws {
        let journal = Journal()
        let group = ServiceGroup(logger: logger)
        for name in ["display", "player", "controller", "control"] { try group.start(Part(name, journal)) }
        XCTAssertEqual(group.stop(), [])
        XCTAssertEqual(journal.all, ["start display", "start player", "start controller", "start control",
                                     "stop control", "stop controller", "stop player", "stop display"])
        XCTAssertEqual(group.stop(), [], "stopped once: nothing is stopped twice")
        XCTAssertEqual(journal.all.count, 8)
    }

    func testAServiceThatIsNotEssentialIsLeftOutWhenItCannotStart() throws {
        let journal = Journal()
        let group = ServiceGroup(logger: logger)
        try group.start(Part("display", journal))
        try group.start(Part("web", journal, essential: false, failsToStart: true))
        try group.start(Part("control", journal))
        group.stop()
        XCTAssertEqual(journal.all, ["start display", "start control", "stop control", "stop display"], "the web page is never stopped: it never ran")
    }

    func testAnEssentialServiceThatCannotStartFailsTheStart() throws {
        let journal = Journal()
        let group = ServiceGroup(logger: logger)
        try group.start(Part("display", journal))
        XCTAssertThrowsError(try group.start(Part("control", journal, failsToStart: true))) { error in
            XCTAssertEqual((error as? ServiceGroup.StartFailure)?.threadNames, "control")
        }
        group.stop()
        XCTAssertEqual(journal.all, ["start display", "stop display"], "what started is stopped")
    }

    /// One deadline for all: a service that takes long leaves the later ones the rest, never less than a moment.
    func testStoppingSharesOneDeadlineAndNamesTheLateServices() throws {
        let journal = Journal()
        let group = ServiceGroup(logger: logger, stopDeadline: 1)
        let first = Part("display", journal)
        let slow = Part("sync", journal, ending: 5)
        try group.start(first)
        try group.start(slow)
        XCTAssertEqual(group.stop(), ["sync"])
        XCTAssertEqual(slow.givenTimeout ?? 0, 1, accuracy: 0.2)
        XCTAssertEqual(first.givenTimeout, ServiceGroup.minimumStopWait, "the deadline had passed: only the minimum")
        XCTAssertEqual(journal.all.suffix(2), ["stop sync", "stop display"])
    }
}
