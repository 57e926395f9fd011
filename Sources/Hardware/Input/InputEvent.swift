/// One decoded input: a knob movement (the needle's or the volume's) or a button action, with the time that decided it.
public struct InputEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The knob moved `delta` steps (signed, clockwise positive, acceleration applied).
        case detent(delta: Int)
        /// The volume moved `byPercent` points of 0–100 (signed, up positive): the volume knob turned,
        /// or the tuning knob turned while pushed (acceleration and the step applied).
        case volumeChange(byPercent: Int)
        /// A button (`play`, `favorite`, `push` for the encoder's switch, …) did `action`.
        case button(name: String, action: ButtonAction)
    }

    public var kind: Kind
    /// `CLOCK_MONOTONIC` nanoseconds of the edge (or the deadline) that completed the event.
    public var timestamp: UInt64

    public init(_ kind: Kind, at timestamp: UInt64) {
        self.kind = kind
        self.timestamp = timestamp
    }
}
