/// The tuning needle: where it stands, which way it last moved, and when the knob last
/// turned, so that the controller knows when the knob rests and the needle snaps.
///
/// Pure: time comes in as monotonic nanoseconds (the GPIO events' own timestamps).
public struct Needle: Sendable, Equatable {
    public private(set) var kHz: Int
    /// +1 up the band, -1 down, 0 before any turn.
    public private(set) var direction = 0
    /// When the last detent moved it; nil when the needle rests on a station.
    public private(set) var turnedAt: UInt64?

    public init(kHz: Int) {
        self.kHz = kHz
    }

    /// Whether the knob is being turned (the needle has not snapped since).
    public var isTurning: Bool { turnedAt != nil }

    /// Moves the needle `steps` channels along `band`, stopping at its ends.
    public mutating func turn(_ steps: Int, on band: Band, at time: UInt64) {
        guard steps != 0 else { return }
        kHz = band.moved(kHz, by: steps)
        direction = steps > 0 ? 1 : -1
        turnedAt = time
    }

    /// The station the needle should snap to once the knob has rested for `rest` nanoseconds,
    /// or nil while it still turns (or when nothing is on the band). Snapping ends the turn.
    public mutating func snapIfRested(on dial: DialBand, at time: UInt64, rest: UInt64) -> DialBand.Entry? {
        guard let turnedAt, time >= turnedAt &+ rest else { return nil }
        self.turnedAt = nil
        guard let entry = dial.closest(to: kHz, direction: direction) else { return nil }
        kHz = entry.kHz
        return entry
    }

    /// Puts the needle on `kHz` at once (a station tuned by back/forward, the CLI or a band switch).
    public mutating func place(at kHz: Int) {
        self.kHz = kHz
        turnedAt = nil
    }
}

import WavedialCore
