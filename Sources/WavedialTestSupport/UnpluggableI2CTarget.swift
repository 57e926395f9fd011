import Foundation
import Hardware

/// An LCD backpack on I2C that can stop answering and come back, as one does when its cable is pulled or
/// it loses power: the stand-in for a bus fault, since this machine has no I2C bus and i2c-stub takes no
/// plain writes.
///
/// While unplugged every write throws `I2CError` with `EREMOTEIO` (what the kernel's I2C drivers return
/// when nobody acknowledges the address) and nothing reaches the controller. ``plugIn(_:)`` puts a
/// controller back; by default a freshly powered-on one in 8-bit mode with garbage in its DDRAM, so only
/// a full initialisation brings the screen back. Written from the display thread while a test reads
/// it: every access takes a lock.
public final class UnpluggableI2CTarget: I2CTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var emulator: HD44780Emulator
    private var unplugged = false
    private var refused = 0

    public init(_ emulator: HD44780Emulator = HD44780Emulator()) {
        self.emulator = emulator
    }

    public func write(_ bytes: [UInt8]) throws {
        try lock.withLock {
            guard !unplugged else {
                refused += 1
                throw I2CError(function: "write", path: "/dev/i2c-emulated", code: EREMOTEIO)
            }
            try emulator.write(bytes)
        }
    }

    public func idle(microseconds: Int) {
        lock.withLock { emulator.idle(microseconds: microseconds) }
    }

    /// Stops answering.
    public func unplug() {
        lock.withLock { unplugged = true }
    }

    /// Answers again, with `controller` behind the backpack (default: just powered on, DDRAM full of 0xFF).
    public func plugIn(_ controller: HD44780Emulator = HD44780Emulator(prior: .powerOn, ddramFill: 0xFF)) {
        lock.withLock {
            emulator = controller
            unplugged = false
        }
    }

    /// Writes refused while unplugged.
    public var refusedWrites: Int { lock.withLock { refused } }

    /// Reads the controller.
    public func inspect<T>(_ body: (HD44780Emulator) -> T) -> T {
        lock.withLock { body(emulator) }
    }
}
