/// Which addresses a transfer may connect to, judged at connect time on the address the name
/// resolved to (``CurlEasy/setAddressPolicy(_:)``), so that redirects, playlist entries and DNS
/// rebinding cannot lead around it.
///
/// A catalog station is a stranger's URL: it must not make the radio fetch from the radio itself,
/// the home network (a router's admin page) or link-local and multicast addresses (cloud metadata,
/// mDNS). A URL the user typed may reach the home network (home Icecast servers are real), never
/// link-local, multicast or the radio itself. Pure value; any thread.
public struct AddressPolicy: Hashable, Sendable {
    /// Kinds of address a policy may refuse.
    public struct Kinds: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 127.0.0.0/8, ::1.
        public static let loopback = Kinds(rawValue: 1 << 0)
        /// 0.0.0.0/8, :: (Linux connects 0.0.0.0 to the machine itself).
        public static let unspecified = Kinds(rawValue: 1 << 1)
        /// 169.254.0.0/16, fe80::/10.
        public static let linkLocal = Kinds(rawValue: 1 << 2)
        /// 224.0.0.0/4, ff00::/8.
        public static let multicast = Kinds(rawValue: 1 << 3)
        /// 10/8, 172.16/12, 192.168/16; fc00::/7 (unique local), fec0::/10 (site-local), 64:ff9b:1::/48 (local NAT64).
        public static let privateNetwork = Kinds(rawValue: 1 << 4)
        /// 100.64.0.0/10, carrier-grade NAT's shared space (and VPNs such as Tailscale).
        public static let sharedAddressSpace = Kinds(rawValue: 1 << 5)
        /// 240.0.0.0/4 with the broadcast 255.255.255.255, 100::/64 (discard).
        public static let reserved = Kinds(rawValue: 1 << 6)
        /// An address of one of this machine's interfaces, or their broadcast addresses.
        public static let ownAddress = Kinds(rawValue: 1 << 7)

        /// Words for one kind, for the refusal's message.
        var name: String {
            switch self {
            case .loopback: return "loopback"
            case .unspecified: return "unspecified"
            case .linkLocal: return "link-local"
            case .multicast: return "multicast"
            case .privateNetwork: return "private network"
            case .sharedAddressSpace: return "shared address space"
            case .reserved: return "reserved"
            case .ownAddress: return "this radio's own address"
            default: return "refused"
            }
        }

        static let each: [Kinds] = [.unspecified, .loopback, .ownAddress, .linkLocal, .multicast, .reserved, .privateNetwork,
                                    .sharedAddressSpace]
    }

    /// The kinds refused.
    public var refused: Kinds
    /// Ranges allowed whatever their kind (the configuration's `allowed_addresses`): checked first.
    public var exceptions: [IPNetwork]
    /// Who the policy guards, for the refusal's message: "a catalog station".
    public var subject: String

    public init(refusing refused: Kinds, exceptions: [IPNetwork] = [], subject: String) {
        self.refused = refused
        self.exceptions = exceptions
        self.subject = subject
    }

    /// A station from the catalog (the dial, a name or uuid, a favorite taken from the catalog):
    /// public addresses only.
    public static let catalog = AddressPolicy(
        refusing: [.unspecified, .loopback, .ownAddress, .linkLocal, .multicast, .reserved, .privateNetwork, .sharedAddressSpace],
        subject: "a catalog station")

    /// A URL the user typed (`play-url`, `check-url`, an imported favorite): the home network too,
    /// never link-local, multicast or the radio itself.
    public static let userTyped = AddressPolicy(
        refusing: [.unspecified, .loopback, .ownAddress, .linkLocal, .multicast, .reserved], subject: "a URL you typed")

    /// A server named in the configuration (`[catalog] servers`): the administrator's choice, which
    /// may be a mirror on the LAN or a tunnel on loopback; still never link-local or multicast.
    public static let configuredServer = AddressPolicy(
        refusing: [.unspecified, .linkLocal, .multicast, .reserved], subject: "a configured server")

    /// This policy, also allowing `networks` whatever their kind.
    public func allowing(_ networks: [IPNetwork]) -> AddressPolicy {
        var policy = self
        policy.exceptions += networks
        return policy
    }

    /// This policy, naming `subject` in its refusals.
    public func guarding(_ subject: String) -> AddressPolicy {
        var policy = self
        policy.subject = subject
        return policy
    }

    /// Whether the policy refuses an address of this machine: only then does a check need ``ownAddresses``.
    public var refusesOwnAddresses: Bool { refused.contains(.ownAddress) }

    /// Why `address` may not be connected to, nil when it may.
    /// - Parameter ownAddresses: this machine's addresses (``HostAddresses/current()``), for ``Kinds/ownAddress``.
    public func refusal(of address: IPAddress, ownAddresses: [IPAddress] = []) -> AddressRefusal? {
        if exceptions.contains(where: { $0.contains(address) }) { return nil }
        var kinds = Self.kinds(of: address)
        if let embedded = address.embeddedIPv4 {
            if exceptions.contains(where: { $0.contains(embedded) }) { return nil }
            kinds.formUnion(Self.kinds(of: embedded))
        }
        if ownAddresses.contains(address) || address.embeddedIPv4.map(ownAddresses.contains) == true {
            kinds.insert(.ownAddress)
        }
        let refusedKinds = kinds.intersection(refused)
        guard let first = Kinds.each.first(where: refusedKinds.contains) else { return nil }
        return AddressRefusal(address: address, kind: first, subject: subject)
    }

    /// The kinds `address` itself belongs to (not the IPv4 address it may carry).
    public static func kinds(of address: IPAddress) -> Kinds {
        var kinds: Kinds = []
        for (network, kind) in ranges where network.contains(address) { kinds.insert(kind) }
        return kinds
    }

    private static let ranges: [(IPNetwork, Kinds)] = [
        (v4(0x0000_0000, 8), .unspecified),
        (v4(0x0A00_0000, 8), .privateNetwork),
        (v4(0x6440_0000, 10), .sharedAddressSpace),
        (v4(0x7F00_0000, 8), .loopback),
        (v4(0xA9FE_0000, 16), .linkLocal),
        (v4(0xAC10_0000, 12), .privateNetwork),
        (v4(0xC0A8_0000, 16), .privateNetwork),
        (v4(0xE000_0000, 4), .multicast),
        (v4(0xF000_0000, 4), .reserved),
        (v6(0, 0, 128), .unspecified),
        (v6(0, 1, 128), .loopback),
        (v6(0x0064_FF9B_0001_0000, 0, 48), .privateNetwork),
        (v6(0x0100_0000_0000_0000, 0, 64), .reserved),
        (v6(0xFC00_0000_0000_0000, 0, 7), .privateNetwork),
        (v6(0xFE80_0000_0000_0000, 0, 10), .linkLocal),
        (v6(0xFEC0_0000_0000_0000, 0, 10), .privateNetwork),
        (v6(0xFF00_0000_0000_0000, 0, 8), .multicast),
    ]

    private static func v4(_ bits: UInt32, _ length: Int) -> IPNetwork { IPNetwork(IPAddress(v4: bits), prefixLength: length) }

    private static func v6(_ high: UInt64, _ low: UInt64, _ length: Int) -> IPNetwork {
        IPNetwork(IPAddress(v6: high, low), prefixLength: length)
    }
}

/// A connection an ``AddressPolicy`` refused: "address 192.168.1.1 (private network) not allowed for a catalog station".
public struct AddressRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    /// The kind that ruled it out (one).
    public let kind: AddressPolicy.Kinds
    /// Whom the policy guards: "a catalog station".
    public let subject: String

    public var description: String { "address \(address) (\(kind.name)) not allowed for \(subject)" }
}
