/// The HD44780's 4-bit interface driven through a PCF8574 I2C port expander (an "I2C backpack").
///
/// Every nibble costs two port bytes (E high with the data, E low with the same data: the controller
/// latches on the falling edge, and nothing else changes on that edge, honouring the hold time), plus one
/// byte with E low whenever RS changes (address setup before E rises). Bytes are queued and sent as one
/// I2C write per `flush()` or before a wait, so the address byte is paid once. At 100 kHz a byte takes
/// 90 µs on the wire, longer than any ordinary instruction's 37–41 µs, so only slow instructions
/// (clear, home, initialisation) need an explicit wait.
///
/// Used from one thread at a time (the display's writer thread).
public final class PCF8574Bus: LCDBus {
    private let transport: I2CTransport
    private let mapping: PCF8574Mapping
    private let busClockHertz: Int
    private var pending: [UInt8] = []
    private var lastRegister: HD44780Register?
    private var lastNibble: UInt8 = 0
    private var backlightOn = true
    public private(set) var statistics = LCDBusStatistics()

    /// i2c-dev accepts messages up to 8192 bytes; stay well below.
    private static let maximumTransaction = 4096

    /// Creates the bus over `transport` with the backpack's `mapping`.
    ///
    /// `busClockHertz` (the I2C SCL frequency, 100 kHz on a Raspberry Pi unless configured otherwise)
    /// is used for the bus-time figures and to decide when an instruction needs an explicit wait.
    public init(transport: I2CTransport, mapping: PCF8574Mapping = .common, busClockHertz: Int = 100_000) {
        self.transport = transport
        self.mapping = mapping
        self.busClockHertz = busClockHertz
    }

    /// Microseconds one byte occupies the wire (eight bits and the ACK).
    private var byteMicroseconds: Double { 9 * 1_000_000 / Double(busClockHertz) }

    public func writeNibble(_ nibble: UInt8, register: HD44780Register, executionMicroseconds: Int) throws {
        let rs = register == .data
        if lastRegister != register {
            pending.append(mapping.portByte(nibble: nibble, registerSelect: rs, enable: false, backlightOn: backlightOn))
        }
        pending.append(mapping.portByte(nibble: nibble, registerSelect: rs, enable: true, backlightOn: backlightOn))
        pending.append(mapping.portByte(nibble: nibble, registerSelect: rs, enable: false, backlightOn: backlightOn))
        lastRegister = register
        lastNibble = nibble
        // The next nibble latches at the earliest two bytes later.
        if Double(executionMicroseconds) > 2 * byteMicroseconds {
            try pause(microseconds: executionMicroseconds)
        }
    }

    public func pause(microseconds: Int) throws {
        try flush()
        transport.idle(microseconds: microseconds)
        statistics.waitMicroseconds += microseconds
    }

    public func setBacklight(_ on: Bool) throws {
        backlightOn = on
        // E stays low and RS and data keep their levels: no edge reaches the controller.
        pending.append(mapping.portByte(nibble: lastNibble, registerSelect: lastRegister == .data, enable: false,
                                        backlightOn: on))
        lastRegister = lastRegister ?? .instruction
        try flush()
    }

    /// Sends the queued bytes. On failure the queue is dropped and the port state counts as unknown,
    /// so nothing stale is sent later; the driver re-initialises the controller.
    public func flush() throws {
        while !pending.isEmpty {
            let chunk = Array(pending.prefix(Self.maximumTransaction))
            pending.removeFirst(chunk.count)
            do {
                try transport.write(chunk)
            } catch {
                pending.removeAll()
                lastRegister = nil
                throw error
            }
            statistics.bytes += chunk.count
            // start, address byte with ACK, the data bytes, stop
            statistics.busMicroseconds += Double(11 + 9 * chunk.count) * 1_000_000 / Double(busClockHertz)
        }
    }
}
