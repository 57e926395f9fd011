import Glibc

/// An IPv4 or IPv6 address, as a connection reaches it: what ``AddressPolicy`` judges.
///
/// Pure value; any thread. Text is read by `inet_pton` and written by `inet_ntop`, so it means what
/// the C library means by it (no octal or shortened IPv4 forms, no zone index).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public enum Family: Hashable, Sendable { case v4, v6 }

    public let family: Family
    /// The upper 64 bits of an IPv6 address; 0 for IPv4.
    let high: UInt64
    /// The lower 64 bits of an IPv6 address; an IPv4 address in its low 32 bits.
    let low: UInt64

    /// The IPv4 address `bits` (`0x7F000001` is 127.0.0.1).
    public init(v4 bits: UInt32) {
        family = .v4
        high = 0
        low = UInt64(bits)
    }

    /// The IPv6 address whose upper and lower halves are `high` and `low`.
    public init(v6 high: UInt64, _ low: UInt64) {
        family = .v6
        self.high = high
        self.low = low
    }

    /// The address written as `text` (`192.168.1.1`, `::1`, `::ffff:10.0.0.1`); nil for anything else.
    public init?(_ text: String) {
        // inet_pton reads up to a NUL: "127.0.0.1\0junk" must not pass as 127.0.0.1. The longest
        // IPv6 text is 45 characters.
        guard !text.isEmpty, text.utf8.count <= 45, !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(v4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(v6Bytes: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// The address in a `sockaddr_in` or `sockaddr_in6` (family from its first field); nil when the
    /// bytes are too few or hold another family.
    public init?(socketAddress bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= MemoryLayout<sa_family_t>.size else { return nil }
        let family = Int32(bytes.loadUnaligned(as: sa_family_t.self))
        if family == AF_INET, bytes.count >= MemoryLayout<sockaddr_in>.size {
            let address = bytes.loadUnaligned(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: UInt32.self)
            self.init(v4: UInt32(bigEndian: address))
        } else if family == AF_INET6, bytes.count >= MemoryLayout<sockaddr_in6>.size {
            let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
            self.init(v6Bytes: Array(bytes[offset..<(offset + 16)]))
        } else {
            return nil
        }
    }

    private init(v6Bytes bytes: [UInt8]) {
        var high: UInt64 = 0, low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self.init(v6: high, low)
    }

    /// The IPv4 address's 32 bits; 0 for IPv6.
    var v4Bits: UInt32 { family == .v4 ? UInt32(truncatingIfNeeded: low) : 0 }

    /// The IPv4 address an IPv6 address stands for, when it is one of the forms that carry one:
    /// IPv4-mapped (`::ffff:a.b.c.d`) and -translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated; `::` and `::1` are
    /// not), NAT64's well-known prefix (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::/48`).
    /// A connection to any of these may end at that IPv4 address, so the policy judges it too.
    public var embeddedIPv4: IPAddress? {
        guard family == .v6 else { return nil }
        let last32 = UInt32(truncatingIfNeeded: low)
        if high == 0 && (low >> 32 == 0xFFFF || low >> 32 == 0xFFFF_0000) { return IPAddress(v4: last32) }
        if high == 0 && low >> 32 == 0 && last32 > 1 { return IPAddress(v4: last32) }
        if high == 0x0064_FF9B_0000_0000 && low >> 32 == 0 { return IPAddress(v4: last32) }
        if high >> 48 == 0x2002 { return IPAddress(v4: UInt32(truncatingIfNeeded: high >> 16)) }
        return nil
    }

    /// `192.168.1.1`, `fe80::1` (`inet_ntop`).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch family {
        case .v4:
            var address = in_addr(s_addr: v4Bits.bigEndian)
            _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        case .v6:
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
                bytes[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
            }
            _ = bytes.withUnsafeBytes { inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
