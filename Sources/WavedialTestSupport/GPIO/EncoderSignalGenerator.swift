import Hardware

/// Produces the edges a rotary encoder's contacts make when turned, for tests and benchmarks.
///
/// Contacts follow the Gray code forwards as 00→10→11→01 (A leads), `stepsPerDetent` quarter
/// steps a detent, evenly spread over the detent's interval. Every edge may bounce (the chatter
/// ends before the other contact moves, as in a real encoder). With `missingStateProbability`
/// two consecutive quarter steps of a fast spin happen at the same instant, so the state between
/// them is never seen; never the first quarter step of a turn, which tells the direction.
public struct EncoderSignalGenerator: Sendable {
    public let stepsPerDetent: QuadratureDecoder.StepsPerDetent
    public var lineA: Int
    public var lineB: Int
    public var bounce: ContactBounce
    public var missingStateProbability: Double
    /// The contacts now (A, B) and the time of the next edge.
    public private(set) var a: Bool
    public private(set) var b: Bool
    public private(set) var time: UInt64
    private var random: SeededRandom

    /// Starts at rest on a detent: both contacts at `restLevel`, at `time`.
    public init(stepsPerDetent: QuadratureDecoder.StepsPerDetent, restLevel: Bool = true, lineA: Int = 0,
                lineB: Int = 1, bounce: ContactBounce = .none, missingStateProbability: Double = 0,
                seed: UInt64, at time: UInt64 = 1_000_000_000) {
        self.stepsPerDetent = stepsPerDetent
        self.lineA = lineA
        self.lineB = lineB
        self.bounce = bounce
        self.missingStateProbability = missingStateProbability
        self.a = restLevel
        self.b = restLevel
        self.time = time
        self.random = SeededRandom(seed: seed)
    }

    /// Turns `detents` (signed: positive forwards) at one detent every `interval` ns; returns the edges in order.
    public mutating func turn(_ detents: Int, every interval: UInt64) -> [GPIOEdge] {
        let quarters = abs(detents) * stepsPerDetent.rawValue
        let quarterInterval = interval / UInt64(stepsPerDetent.rawValue)
        var edges: [GPIOEdge] = []
        var quarter = 0
        while quarter < quarters {
            let skip = quarter > 0 && quarter + 1 < quarters
                && Double.random(in: 0..<1, using: &random) < missingStateProbability
            if skip {
                // Both contacts change at once: one quarter step and the next, simultaneously.
                let first = step(forwards: detents > 0)
                let second = step(forwards: detents > 0)
                var pair = [GPIOEdge(line: first.line, first.level ? .rising : .falling, at: time),
                            GPIOEdge(line: second.line, second.level ? .rising : .falling, at: time)]
                if Bool.random(using: &random) { pair.reverse() }
                edges += pair
                time += 2 * quarterInterval
                quarter += 2
            } else {
                let change = step(forwards: detents > 0)
                edges += bounce.edges(line: change.line, to: change.level, at: time, limit: quarterInterval * 2 / 5,
                                      using: &random)
                time += quarterInterval
                quarter += 1
            }
        }
        return edges
    }

    /// Lets the knob rest for `nanoseconds`.
    public mutating func rest(_ nanoseconds: UInt64) {
        time += nanoseconds
    }

    /// Moves the contacts one quarter step; returns the line that changed and its new level.
    private mutating func step(forwards: Bool) -> (line: Int, level: Bool) {
        // Forwards 00→10→11→01: A changes when A == B, B otherwise; backwards the other way round.
        if (a == b) == forwards {
            a.toggle()
            return (lineA, a)
        }
        b.toggle()
        return (lineB, b)
    }
}
