/// Turns one button's contact edges into debounced press / release / click / long / repeat actions.
///
/// A level counts once it has been stable for `debounceNanoseconds`; shorter glitches are
/// ignored. A press held for `longPressNanoseconds` fires `long` once; with `autoRepeat` it fires
/// `repeat` after the delay and then at every interval instead. Releasing before either fired
/// adds `click` after `release`. A long press or repeat needs the contact closed at its time: a
/// release that is still being debounced defers it, and decides it if the release sticks.
/// All time comes from edge timestamps and `advance(to:)`; a value type owned by one thread.
public struct ButtonDecoder: Sendable {
    /// Auto-repeat timing for a held button.
    public struct AutoRepeat: Sendable, Equatable {
        public var delayNanoseconds: UInt64
        public var intervalNanoseconds: UInt64

        /// The defaults: first repeat after 500 ms, then every 150 ms.
        public init(delayNanoseconds: UInt64 = 500_000_000, intervalNanoseconds: UInt64 = 150_000_000) {
            self.delayNanoseconds = delayNanoseconds
            self.intervalNanoseconds = max(1, intervalNanoseconds)
        }
    }

    public let debounceNanoseconds: UInt64
    public let longPressNanoseconds: UInt64
    public let autoRepeat: AutoRepeat?

    private var contact: Bool
    private var contactSince: UInt64
    /// Whether the button counts as pressed (debounced).
    public private(set) var isPressed: Bool
    private var pressedAt: UInt64 = 0
    private var longFired = false
    private var repeatsFired: UInt64 = 0
    /// False while a button held at start-up has not been released: that is not a press.
    private var isArmed: Bool

    /// Creates a decoder for a button whose contact currently reads `pressed`.
    public init(pressed: Bool = false, debounceNanoseconds: UInt64 = 30_000_000,
                longPressNanoseconds: UInt64 = 800_000_000, autoRepeat: AutoRepeat? = nil, at time: UInt64 = 0) {
        self.debounceNanoseconds = debounceNanoseconds
        self.longPressNanoseconds = longPressNanoseconds
        self.autoRepeat = autoRepeat
        self.contact = pressed
        self.contactSince = time
        self.isPressed = pressed
        self.isArmed = !pressed
    }

    /// Feeds the contact's level after an edge at `time`; returns the actions completed up to then, in order.
    public mutating func update(pressed: Bool, at time: UInt64) -> [(action: ButtonAction, time: UInt64)] {
        let actions = advance(to: time)
        if pressed != contact {
            contact = pressed
            contactSince = time
        }
        return actions
    }

    /// Returns the actions whose time has come by `time` (debounced changes, long press, repeats), in order.
    public mutating func advance(to time: UInt64) -> [(action: ButtonAction, time: UInt64)] {
        var actions: [(action: ButtonAction, time: UInt64)] = []
        while let due = nextDue, due.time <= time {
            switch due.kind {
            case .commit:
                isPressed = contact
                if isPressed {
                    pressedAt = contactSince
                    isArmed = true
                    longFired = false
                    repeatsFired = 0
                    actions.append((.press, due.time))
                } else {
                    actions.append((.release, due.time))
                    if isArmed && !longFired && repeatsFired == 0 { actions.append((.click, due.time)) }
                }
            case .long:
                longFired = true
                actions.append((.long, due.time))
            case .repeat:
                repeatsFired += 1
                actions.append((.repeat, due.time))
            }
        }
        return actions
    }

    /// When `advance(to:)` will next have an action, if any.
    public var nextDeadline: UInt64? { nextDue?.time }

    private enum DueKind { case commit, long, `repeat` }

    private var nextDue: (kind: DueKind, time: UInt64)? {
        if contact != isPressed {
            return (.commit, contactSince + debounceNanoseconds)
        }
        guard isPressed, isArmed else { return nil }
        // The contact is closed and settled: timers may fire, not before the contact closed again.
        if let autoRepeat {
            let due = pressedAt + autoRepeat.delayNanoseconds + repeatsFired * autoRepeat.intervalNanoseconds
            return (.repeat, max(due, contactSince))
        }
        guard !longFired else { return nil }
        return (.long, max(pressedAt + longPressNanoseconds, contactSince))
    }
}
