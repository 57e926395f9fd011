import Foundation
import Hardware
import Threads
import WavedialTestSupport
import XCTest

/// Makes a gpio-sim chip, or skips when not inside the gpio-vm guest (the host kernel has no
/// gpio-sim); scripts/test.d/gpio-vm runs these tests in the guest, where a missing chip fails.
func makeSimChip(lines: Int, lineNames: [Int: String] = [:]) throws -> GPIOSimChip {
    guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
        throw XCTSkip("needs the kernel's gpio-sim: run inside the VM (scripts/test.d/gpio-vm)")
    }
    return try GPIOSimChip(lines: lines, lineNames: lineNames)
}

/// Collects what an `InputReader` reports, from its thread, until a test has seen enough.
final class InputEventCollector {
    private let condition = NSCondition()
    private var events: [InputEvent] = []
    private var edges: [GPIOEdge] = []
    private var failures: [Error] = []

    var handlers: InputReader.Handlers {
        InputReader.Handlers(
            event: { event in self.locked { self.events.append(event) } },
            edge: { edge, _ in self.locked { self.edges.append(edge) } },
            failure: { error in self.locked { self.failures.append(error) } })
    }

    /// Waits (up to `timeout` seconds) until `done` holds for the events so far; returns them.
    func wait(timeout: TimeInterval = 20, until done: ([InputEvent]) -> Bool) -> [InputEvent] {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(events) && failures.isEmpty && condition.wait(until: limit) {}
        return events
    }

    var receivedEdges: [GPIOEdge] { condition.lock(); defer { condition.unlock() }; return edges }
    var receivedFailures: [Error] { condition.lock(); defer { condition.unlock() }; return failures }

    private func locked(_ body: () -> Void) {
        condition.lock()
        body()
        condition.broadcast()
        condition.unlock()
    }
}

func detents(_ events: [InputEvent]) -> [Int] {
    events.compactMap { if case .detent(let delta) = $0.kind { return delta } else { return nil } }
}

func actions(_ events: [InputEvent], of button: String) -> [ButtonAction] {
    events.compactMap { if case .button(button, let action) = $0.kind { return action } else { return nil } }
}

/// Waits (up to 5 s) until `backend` has returned `count` edges; returns them.
func edges(from backend: GPIOBackend, count: Int) throws -> [GPIOEdge] {
    let limit = MonotonicClock.now() + 5_000_000_000
    var edges: [GPIOEdge] = []
    while edges.count < count && MonotonicClock.now() < limit {
        edges += try backend.waitForEdges(until: limit)
    }
    return edges
}
