/// One `struct input_event` read from an evdev device (`/dev/input/event*`): its type, code and value
/// (the timestamp is not used). Bytes from the device are outside input: a record is taken whole or not at
/// all, and any type, code or value may arrive.
public struct EvdevEvent: Sendable, Equatable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN`: the end of a report (`SYN_REPORT`) or a lost stretch (`SYN_DROPPED`).
    public static let synchronization: UInt16 = 0x00
    /// `EV_KEY`: a key went down (value 1), repeats while held (2) or went up (0).
    public static let key: UInt16 = 0x01
    /// `SYN_REPORT`, the code of an `EV_SYN` that ends a report.
    public static let report: UInt16 = 0
    /// `SYN_DROPPED`: the kernel's buffer overflowed; events up to the next `SYN_REPORT` are incomplete.
    public static let dropped: UInt16 = 3

    /// The bytes of one record. The kernel's uapi makes the timestamp two `long`s on every ABI (a `timeval`,
    /// or `__sec`/`__usec` where `time_t` is 64-bit on a 32-bit machine), then type, code and value: 24 bytes
    /// on 64-bit Linux, 16 on 32-bit.
    public static let size = 2 * MemoryLayout<Int>.size + 8
    private static let typeOffset = 2 * MemoryLayout<Int>.size

    /// The whole records in `bytes`, in order; a partial record at the end is left out (a `read` of an
    /// evdev device returns whole records only, so it would be junk).
    public static func records(in bytes: UnsafeRawBufferPointer) -> [EvdevEvent] {
        var events: [EvdevEvent] = []
        events.reserveCapacity(bytes.count / size)
        var start = 0
        while bytes.count - start >= size {
            let fields = start + typeOffset
            events.append(EvdevEvent(
                type: bytes.loadUnaligned(fromByteOffset: fields, as: UInt16.self),
                code: bytes.loadUnaligned(fromByteOffset: fields + 2, as: UInt16.self),
                value: bytes.loadUnaligned(fromByteOffset: fields + 4, as: Int32.self)))
            start += size
        }
        return events
    }
}
