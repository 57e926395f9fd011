/// Where a PCF8574 backpack's bytes go: a real i2c-dev device, or an emulator in the tests.
///
/// Implementations are used from one thread at a time (the display's writer thread).
public protocol I2CTransport: AnyObject {
    /// Writes `bytes` to the target in one I2C write transaction (start, address, bytes, stop).
    ///
    /// - Throws: `I2CError` when the kernel refuses the transfer (no ACK, bus error).
    func write(_ bytes: [UInt8]) throws

    /// Leaves the bus idle for at least `microseconds`, so the target can finish slow work.
    func idle(microseconds: Int)
}
