/// A range of addresses: an address and how many of its leading bits every member shares
/// (`10.0.0.0/8`, `fe80::/10`, one address as `/32` or `/128`). Pure value; any thread.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the range (the bits past the prefix cleared).
    public let address: IPAddress
    public let prefixLength: Int

    /// The range of the first `prefixLength` bits of `address` (clamped to 0...32 or 0...128).
    public init(_ address: IPAddress, prefixLength: Int) {
        let width = address.family == .v4 ? 32 : 128
        let length = min(max(prefixLength, 0), width)
        self.prefixLength = length
        let (highMask, lowMask) = Self.masks(family: address.family, prefixLength: length)
        switch address.family {
        case .v4: self.address = IPAddress(v4: address.v4Bits & UInt32(truncatingIfNeeded: lowMask))
        case .v6: self.address = IPAddress(v6: address.high & highMask, address.low & lowMask)
        }
    }

    /// `text` as `ADDRESS` or `ADDRESS/PREFIX` (`127.0.0.1`, `10.0.0.0/8`, `fc00::/7`); nil when it is
    /// not one, or the prefix is not a whole number that fits the family.
    public init?(_ text: String) {
        guard text.utf8.count <= 49 else { return nil }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let width = address.family == .v4 ? 32 : 128
        guard parts.count == 2 else {
            self.init(address, prefixLength: width)
            return
        }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let length = Int(digits), length <= width else { return nil }
        self.init(address, prefixLength: length)
    }

    /// Whether `candidate` lies in the range (an address of the other family never does).
    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.family == address.family else { return false }
        return IPNetwork(candidate, prefixLength: prefixLength).address == address
    }

    /// `10.0.0.0/8`.
    public var description: String { "\(address)/\(prefixLength)" }

    /// The loopback ranges, 127.0.0.0/8 and ::1: what a configuration allows for a station served
    /// on this machine (and the tests for their loopback servers).
    public static let loopback = [IPNetwork(IPAddress(v4: 0x7F00_0000), prefixLength: 8), IPNetwork(IPAddress(v6: 0, 1), prefixLength: 128)]

    /// The masks of the upper and lower 64 bits (IPv4: the lower word's low 32 bits).
    private static func masks(family: IPAddress.Family, prefixLength: Int) -> (UInt64, UInt64) {
        func ones(_ count: Int, of width: Int) -> UInt64 {
            guard count > 0 else { return 0 }
            let all: UInt64 = width == 64 ? .max : (1 << UInt64(width)) - 1
            return count >= width ? all : all & ~((1 << UInt64(width - count)) - 1)
        }
        switch family {
        case .v4: return (0, ones(prefixLength, of: 32))
        case .v6: return (ones(prefixLength, of: 64), ones(prefixLength - 64, of: 64))
        }
    }
}
