/// Turns the receiver's evdev events into the remote's actions, by the key map and the repeat policy: a
/// key does its action when it goes down (value 1); at the kernel's autorepeats (value 2) only an action that
/// ``IRAction/repeatsWhenHeld`` (the volume) does it again; a release (0) does nothing.
///
/// Pure, and total over any event: unknown types, codes past `KEY_MAX`, values other than 0–2 and keys not
/// in the map are ignored. After `SYN_DROPPED` (the kernel's buffer overflowed) events are ignored up to the
/// next `SYN_REPORT`, as the evdev protocol asks: a stale press is not acted on late.
public struct IRKeyDecoder: Sendable {
    public let keys: [KeyCode: IRAction]
    private var dropping = false

    public init(keys: [KeyCode: IRAction]) {
        self.keys = keys
    }

    /// The action `event` asks for, or nil.
    public mutating func handle(_ event: EvdevEvent) -> IRAction? {
        if event.type == EvdevEvent.synchronization {
            if event.code == EvdevEvent.dropped {
                dropping = true
            } else if event.code == EvdevEvent.report {
                dropping = false
            }
            return nil
        }
        guard !dropping, event.type == EvdevEvent.key, let key = KeyCode(rawValue: event.code), let action = keys[key] else {
            return nil
        }
        switch event.value {
        case 1: return action
        case 2: return action.repeatsWhenHeld ? action : nil
        default: return nil
        }
    }

    /// The actions of `events`, in order.
    public mutating func handle(_ events: [EvdevEvent]) -> [IRAction] {
        events.compactMap { handle($0) }
    }
}
