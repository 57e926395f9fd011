/// Turns the two contacts of a rotary encoder into detents, immune to contact bounce.
///
/// The decoder follows the Gray-code state `A<<1 | B` through a transition table. A valid
/// transition moves the position one quarter step; `A` leading `B` (00→10→11→01→00) counts
/// forwards. Detents are then derived from the position:
/// - with 4 or 2 steps per detent, a detent is reported when the position arrives one whole
///   detent away from the last reported one. Bounce toggles one contact, so it can move the
///   position back and forth by one quarter step but never a whole detent: it can neither add a
///   step nor reverse one, and the detent is reported on the first arrival (no added latency).
/// - with 1 step per detent every state is a detent, so a bouncing contact is a real reversal as
///   far as the states go; the position is reported only once it has been stable for `settle`.
/// - a transition that changes both contacts (an intermediate state was missed, as fast spins
///   produce) moves two quarter steps in the direction of the last valid transition. Either guess
///   keeps the position in phase with the contacts (a jump of two is the same state either way),
///   so a wrong guess costs at most one detent and never leaves the decoder reporting detents
///   between rest positions. Before any valid transition the guess is forwards. Edges of both
///   contacts with the same timestamp are such a change too, whatever order they arrive in: the
///   state between them lasted no time, so the first of them is taken back.
///
/// All time comes from the events' timestamps (nanoseconds, `CLOCK_MONOTONIC`), never from a clock.
/// A value type: the thread that owns it calls it.
public struct QuadratureDecoder: Sendable {
    /// How many quarter steps (Gray-code transitions) one mechanical detent spans.
    public enum StepsPerDetent: Int, Sendable, CaseIterable {
        /// Half-step encoders: a detent at every state.
        case one = 1
        /// Detents at 00 and 11 (many KY-040 boards).
        case two = 2
        /// A full Gray cycle per detent (EC11 and most panel encoders).
        case four = 4
    }

    /// How long a 1-step-per-detent position must hold before it counts; longer than any contact bounce.
    public static let defaultSettleNanoseconds: UInt64 = 3_000_000

    /// Quarter steps of the transition `previous<<2 | current`; `invalid` marks a change of both contacts.
    private static let invalid: Int8 = 2
    private static let transitions: [Int8] = [
        //   to 00  01  10  11
        /*00*/ 0, -1, 1, invalid,
        /*01*/ 1, 0, invalid, -1,
        /*10*/ -1, invalid, 0, 1,
        /*11*/ invalid, 1, -1, 0,
    ]

    public let stepsPerDetent: StepsPerDetent
    public let inverted: Bool
    public let settleNanoseconds: UInt64

    private var state: UInt8
    /// The state, step and direction before the last change, to take back a change that lasted no time.
    private var previous: (state: UInt8, step: Int, direction: Int)
    private var position = 0
    private var reportedPosition = 0
    /// Forwards until a transition says otherwise: any guess keeps the position in phase.
    private var lastDirection = 1
    private var lastChange: UInt64

    /// Creates a decoder whose contacts currently read `a` and `b` (the knob rests on a detent).
    public init(a: Bool, b: Bool, stepsPerDetent: StepsPerDetent = .four, inverted: Bool = false,
                settleNanoseconds: UInt64 = QuadratureDecoder.defaultSettleNanoseconds, at time: UInt64 = 0) {
        self.state = Self.state(a: a, b: b)
        self.previous = (state, 0, 1)
        self.stepsPerDetent = stepsPerDetent
        self.inverted = inverted
        self.settleNanoseconds = settleNanoseconds
        self.lastChange = time
    }

    /// Feeds the contacts' levels after an edge at `time`; returns the detents completed (signed, forwards positive).
    public mutating func update(a: Bool, b: Bool, at time: UInt64) -> Int {
        let settled = advance(to: time)
        var detents = 0
        let next = Self.state(a: a, b: b)
        guard next != state else { return settled }
        if time == lastChange, previous.step != 0, next != previous.state, next ^ state != state ^ previous.state {
            // The other contact changed at the same instant: one change of both, from the state before.
            position -= previous.step
            lastDirection = previous.direction
            state = previous.state
        }
        let before = (state: state, position: position, direction: lastDirection)
        let step = Self.transitions[Int(state << 2 | next)]
        state = next
        if step == Self.invalid {
            position += 2 * lastDirection
        } else {
            position += Int(step)
            lastDirection = Int(step)
        }
        previous = (before.state, position - before.position, before.direction)
        lastChange = time
        if stepsPerDetent != .one {
            let steps = stepsPerDetent.rawValue
            while position >= reportedPosition + steps {
                reportedPosition += steps
                detents += 1
            }
            while position <= reportedPosition - steps {
                reportedPosition -= steps
                detents -= 1
            }
        }
        return settled + (inverted ? -detents : detents)
    }

    /// Reports a 1-step-per-detent position that has held for `settle` by `time`; 0 for the other types.
    public mutating func advance(to time: UInt64) -> Int {
        guard let deadline = nextDeadline, time >= deadline else { return 0 }
        let detents = position - reportedPosition
        reportedPosition = position
        return inverted ? -detents : detents
    }

    /// When `advance(to:)` will have a detent to report, if any.
    public var nextDeadline: UInt64? {
        guard stepsPerDetent == .one, position != reportedPosition else { return nil }
        return lastChange + settleNanoseconds
    }

    private static func state(a: Bool, b: Bool) -> UInt8 {
        (a ? 2 : 0) | (b ? 1 : 0)
    }
}
