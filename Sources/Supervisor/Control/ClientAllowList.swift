import CurlSupport

/// The networks a server answers (`allow` of `[web]` and `[mpd]`): a client from elsewhere is closed
/// on accept. Pure value; any thread.
public struct ClientAllowList: Sendable, Equatable {
    public let networks: [IPNetwork]

    public init(networks: [IPNetwork]) {
        self.networks = networks
    }

    /// Whether a client at `address` is served; one whose address is unknown never is. A listener on
    /// `::` sees IPv4 clients as IPv4-mapped addresses (`::ffff:192.168.1.20`): they are judged as
    /// the IPv4 address they are.
    public func admits(_ address: IPAddress?) -> Bool {
        guard let address else { return false }
        if networks.contains(where: { $0.contains(address) }) { return true }
        guard let mapped = Self.mappedIPv4(address) else { return false }
        return networks.contains { $0.contains(mapped) }
    }

    private static func mappedIPv4(_ address: IPAddress) -> IPAddress? {
        let text = address.description
        guard address.family == .v6, text.hasPrefix("::ffff:"), text.contains("."),
              let inner = IPAddress(String(text.dropFirst(7))), inner.family == .v4 else { return nil }
        return inner
    }
}
