import Foundation

/// Lines that exist only in memory: the simulator and tests set their levels or inject edges.
///
/// Edges are timestamped with `MonotonicClock` unless injected with their own timestamps, and
/// are handed out by `waitForEdges(until:)` in the order they were made. Levels are logical
/// (what an active-low line reads). All methods are safe from any thread.
public final class SimulatedGPIOBackend: GPIOBackend {
    private let condition = NSCondition()
    private var specs: [GPIOLineSpec] = []
    private var levels: [Bool] = []
    private var pending: [GPIOEdge] = []
    private var woken = false
    private var idleLevels: [String: Bool]

    /// Creates simulated lines; a line reads `idleLevels[role]` when requested, else 0.
    public init(idleLevels: [String: Bool] = [:]) {
        self.idleLevels = idleLevels
    }

    /// Creates the requested lines at their idle levels. Throws `GPIOError` `.system` for a line requested twice.
    public func request(chip: String, lines: [GPIOLineSpec]) throws -> [Bool] {
        condition.lock()
        defer { condition.unlock() }
        for (index, spec) in lines.enumerated() where lines[..<index].contains(where: { $0.line == spec.line }) {
            throw GPIOError(.system, "line \(spec.line) (\(spec.role)) is requested twice")
        }
        specs = lines
        levels = lines.map { idleLevels[$0.role] ?? false }
        pending = []
        return levels
    }

    /// Sets the line that serves `role` (`encoder.a`, `play`, …) to `level` now; an edge if it changed.
    /// Throws `GPIOError` `.lineNotFound` for a role no requested line has.
    public func set(_ role: String, to level: Bool) throws {
        condition.lock()
        defer { condition.unlock() }
        guard let line = specs.firstIndex(where: { $0.role == role }) else {
            throw GPIOError(.lineNotFound, "no simulated line serves \"\(role)\"")
        }
        guard levels[line] != level else { return }
        levels[line] = level
        pending.append(GPIOEdge(line: line, level ? .rising : .falling, at: MonotonicClock.now()))
        condition.broadcast()
    }

    /// Turns the simulated encoder (`encoder.a`, `encoder.b`) by `detents` (forwards positive) now,
    /// one Gray-code step after the other. Throws `GPIOError` `.lineNotFound` without encoder lines.
    public func turn(_ detents: Int, stepsPerDetent: QuadratureDecoder.StepsPerDetent) throws {
        for _ in 0..<(abs(detents) * stepsPerDetent.rawValue) {
            let (a, b) = try level("encoder.a", "encoder.b")
            // Forwards 00→10→11→01: A moves when A == B; backwards B does.
            if (a == b) == (detents > 0) { try set("encoder.a", to: !a) } else { try set("encoder.b", to: !b) }
        }
    }

    /// Queues edges with their own timestamps (a recorded or generated signal); levels follow them.
    public func inject(_ edges: [GPIOEdge]) {
        condition.lock()
        defer { condition.unlock() }
        for edge in edges where levels.indices.contains(edge.line) {
            levels[edge.line] = edge.level
            pending.append(edge)
        }
        condition.broadcast()
    }

    public func waitForEdges(until deadline: UInt64?) throws -> [GPIOEdge] {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !woken {
            if let deadline {
                let now = MonotonicClock.now()
                guard deadline > now else { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
            } else {
                condition.wait()
            }
        }
        woken = false
        defer { pending = [] }
        return pending
    }

    /// Edges are handed out as they are made: everything up to now has been returned.
    public var completeUntil: UInt64 { MonotonicClock.now() }

    public func wake() {
        condition.lock()
        woken = true
        condition.broadcast()
        condition.unlock()
    }

    public func release() {
        condition.lock()
        specs = []
        levels = []
        pending = []
        condition.unlock()
    }

    private func level(_ first: String, _ second: String) throws -> (Bool, Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard let a = specs.firstIndex(where: { $0.role == first }), let b = specs.firstIndex(where: { $0.role == second })
        else { throw GPIOError(.lineNotFound, "no simulated encoder lines") }
        return (levels[a], levels[b])
    }
}
