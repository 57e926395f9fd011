import Foundation
import Threads

/// Lines that exist only in memory: the simulator and tests set their levels or inject edges.
///
/// Edges are timestamped with `MonotonicClock` unless injected with their own timestamps, and
/// are handed out by `waitForEdges(until:)` in the order they were made, each once its timestamp
/// has come (an injected signal in the future plays out in real time, as the kernel would report
/// it). Levels are logical (what an active-low line reads). All methods are safe from any thread: every
/// field is read and written under `condition` (hence `@unchecked Sendable`).
public final class SimulatedGPIOBackend: GPIOBackend, @unchecked Sendable {
    private let condition = NSCondition()
    private var specs: [GPIOLineSpec] = []
    private var levels: [Bool] = []
    private var pending: [GPIOEdge] = []
    private var woken = false
    /// The timestamp of the latest injected edge: where a scheduled signal continues.
    private var lastScheduled: UInt64 = 0
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
            lastScheduled = max(lastScheduled, edge.timestamp)
        }
        condition.broadcast()
    }

    /// One edge of a signal given by line role (`encoder.a`, `play`, …): its logical level after
    /// the edge and the nanoseconds since the signal's previous edge.
    public struct TimedEdge: Sendable, Equatable {
        public var role: String
        public var level: Bool
        public var afterNanoseconds: UInt64

        public init(role: String, level: Bool, afterNanoseconds: UInt64) {
            self.role = role
            self.level = level
            self.afterNanoseconds = afterNanoseconds
        }
    }

    /// How far ahead a scheduled signal may reach (an hour): a knob is not turned further ahead, and
    /// parts sent one after the other must not push the schedule on without end.
    public static let maximumScheduleAheadNanoseconds: UInt64 = 3_600_000_000_000

    /// Plays a signal in real time: the first edge comes after the last one scheduled (or now,
    /// when that has passed) plus its delay, each next one its delay later. A signal sent in
    /// parts continues where the previous part ended. Throws `GPIOError` `.lineNotFound` for a
    /// role no requested line has, and `.system` for a signal that would end more than
    /// ``maximumScheduleAheadNanoseconds`` from now, before any edge of `signal` is queued.
    public func schedule(_ signal: [TimedEdge]) throws {
        condition.lock()
        let roles = specs.map(\.role)
        condition.unlock()
        var lines: [Int] = []
        for edge in signal {
            guard let line = roles.firstIndex(of: edge.role) else {
                throw GPIOError(.lineNotFound, "no simulated line serves \"\(edge.role)\"")
            }
            lines.append(line)
        }
        let now = MonotonicClock.now()
        var time = max(now, condition.withLock { lastScheduled })
        // Added up in Double: the delays come from a control client and may be anything.
        let end = Double(time - now) + signal.reduce(0.0) { $0 + Double($1.afterNanoseconds) }
        guard end <= Double(Self.maximumScheduleAheadNanoseconds) else {
            throw GPIOError(.system, "the signal would end more than an hour from now")
        }
        inject(zip(signal, lines).map { edge, line in
            time += edge.afterNanoseconds
            return GPIOEdge(line: line, edge.level ? .rising : .falling, at: time)
        })
    }

    public func waitForEdges(until deadline: UInt64?) throws -> [GPIOEdge] {
        condition.lock()
        defer { condition.unlock() }
        var due = dueCount(at: MonotonicClock.now())
        while due == 0 && !woken {
            // Sleep until the caller's deadline or the next edge of a signal in the future.
            let now = MonotonicClock.now()
            let wakeAt = [deadline, pending.first?.timestamp].compactMap { $0 }.min()
            if let wakeAt {
                guard wakeAt > now else { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(wakeAt - now) / 1e9))
            } else {
                condition.wait()
            }
            due = dueCount(at: MonotonicClock.now())
        }
        woken = false
        let edges = Array(pending.prefix(due))
        pending.removeFirst(due)
        return edges
    }

    /// The edges at the front of the queue whose time has come (edges stay in the order made).
    private func dueCount(at now: UInt64) -> Int {
        pending.prefix { $0.timestamp <= now }.count
    }

    /// Everything up to now has been returned, except edges still waiting for their time.
    public var completeUntil: UInt64 {
        let now = MonotonicClock.now()
        guard let next = condition.withLock({ pending.first?.timestamp }) else { return now }
        return min(now, next &- 1)
    }

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
        lastScheduled = 0
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
