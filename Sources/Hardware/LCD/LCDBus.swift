/// The wires between the HD44780 driver and the controller: four data lines, RS and E (4-bit interface).
///
/// Two implementations: `PCF8574Bus` (an I2C backpack) and `GpiodLCDBus` (direct GPIO wiring).
/// Used from one thread at a time (the display's writer thread).
public protocol LCDBus: AnyObject {
    /// Puts `nibble` on D4–D7 with RS for `register`, strobes E (the controller latches on the
    /// falling edge), and makes sure the controller gets `executionMicroseconds` before the next nibble.
    ///
    /// A bus may queue nibbles; `flush()` sends them. Throws the bus's own error (`I2CError`, `GpiodLCDBusError`).
    func writeNibble(_ nibble: UInt8, register: HD44780Register, executionMicroseconds: Int) throws

    /// Sends what is queued, then leaves the controller alone for at least `microseconds`.
    /// Throws the bus's own error.
    func pause(microseconds: Int) throws

    /// Switches the backlight, if this wiring has one. Throws the bus's own error.
    func setBacklight(_ on: Bool) throws

    /// Sends whatever is queued. Throws the bus's own error.
    func flush() throws

    /// What this bus has sent so far, for per-frame cost reports.
    var statistics: LCDBusStatistics { get }
}

/// RS: which register of the controller a nibble goes to.
public enum HD44780Register: Sendable {
    /// RS low: instructions.
    case instruction
    /// RS high: DDRAM or CGRAM data.
    case data
}

/// Running totals of what a bus has sent; subtract two readings for the cost of what happened in between.
public struct LCDBusStatistics: Equatable, Sendable {
    /// Bytes written to the wire (I2C data bytes; for GPIO, port updates).
    public var bytes = 0
    /// Time the wire was busy transferring, in microseconds (I2C: start, address, 9 clocks a byte, stop).
    public var busMicroseconds: Double = 0
    /// Time spent waiting for the controller's slow instructions (clear, home, initialisation), in microseconds.
    public var waitMicroseconds = 0

    public init() {}

    /// The difference `self - earlier`.
    public func since(_ earlier: LCDBusStatistics) -> LCDBusStatistics {
        var delta = LCDBusStatistics()
        delta.bytes = bytes - earlier.bytes
        delta.busMicroseconds = busMicroseconds - earlier.busMicroseconds
        delta.waitMicroseconds = waitMicroseconds - earlier.waitMicroseconds
        return delta
    }
}
