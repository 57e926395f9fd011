import CI2CDev
import Glibc
import Threads

/// One target on a Linux I2C bus through i2c-dev (`/dev/i2c-N`): `open`, `ioctl(I2C_SLAVE)`, plain `write`s.
///
/// Owns its file descriptor: `close()` releases it, `deinit` is the safety net. Used from one thread
/// at a time (the display's writer thread); `write` blocks for the transfer (about 0.1 ms a byte at 100 kHz).
public final class I2CDevice: I2CTransport {
    /// The bus device, e.g. `/dev/i2c-1`.
    public let path: String
    /// The 7-bit target address, e.g. 0x27.
    public let address: UInt8
    private var descriptor: Int32

    /// Opens `path` and selects `address`.
    ///
    /// - Throws: `I2CError` from `open` (no such bus, no permission: the user must be in group `i2c`)
    ///   or `ioctl(I2C_SLAVE)` (address out of range, or claimed by a kernel driver).
    public init(path: String, address: UInt8) throws {
        guard address >= 0x03 && address <= 0x77 else {
            throw I2CError(function: "I2C_SLAVE", path: path, code: EINVAL)
        }
        self.path = path
        self.address = address
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw I2CError(function: "open", path: path, code: errno) }
        guard CI2CDev_selectTarget(fd, CUnsignedLong(address)) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw I2CError(function: "ioctl(I2C_SLAVE)", path: path, code: code)
        }
        descriptor = fd
    }

    /// Writes `bytes` as one I2C write transaction (wraps `write(2)`; retries `EINTR`).
    ///
    /// - Throws: `I2CError`: `ENXIO`/`EREMOTEIO` when nothing acknowledges the address, `EIO` on bus errors.
    public func write(_ bytes: [UInt8]) throws {
        guard descriptor >= 0 else { throw I2CError(function: "write", path: path, code: EBADF) }
        let written = bytes.withUnsafeBytes { raw in Interruptible.retry { Glibc.write(descriptor, raw.baseAddress, raw.count) } }
        guard written >= 0 else { throw I2CError(function: "write", path: path, code: errno) }
        guard written == bytes.count else { throw I2CError(function: "write", path: path, code: EIO) }
    }

    /// Sleeps at least `microseconds` (wraps `nanosleep`, resuming after signals).
    public func idle(microseconds: Int) {
        Interruptible.sleep(microseconds: microseconds)
    }

    /// Closes the descriptor (wraps `close(2)`); later writes throw `EBADF`.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }
}

/// An i2c-dev call failed: which call, on which device, and the errno it set.
public struct I2CError: Error, Equatable, CustomStringConvertible {
    /// The failing call, e.g. `open` or `ioctl(I2C_SLAVE)`.
    public let function: String
    /// The device path.
    public let path: String
    /// The errno value.
    public let code: Int32

    /// Creates the error for `function` on `path` failing with errno `code`.
    public init(function: String, path: String, code: Int32) {
        self.function = function
        self.path = path
        self.code = code
    }

    public var description: String {
        let reason = String(cString: strerror(code))
        switch (function, code) {
        case ("open", ENOENT):
            return "\(path): no such I2C bus (enable I2C with raspi-config, or check the bus number)"
        case ("open", EACCES):
            return "\(path): permission denied (add the user to group i2c)"
        case ("write", ENXIO), ("write", EREMOTEIO):
            return "\(path): no device answers at this address (check the address and the wiring)"
        default:
            return "\(path): \(function) failed: \(reason)"
        }
    }
}
