import CurlSupport
import WavedialControl

/// Which clients a TCP server of the daemon's (the MPD server, the web page) serves: those whose address
/// lies in one of the configured ranges (`[mpd] allow`, `[web] allow`). Checked as a client is accepted
/// (``ConnectionServer``'s `admits`), so one from elsewhere is closed before it says anything.
///
/// Pure value; any thread.
public struct ClientAllowList: Sendable, Equatable {
    public let networks: [IPNetwork]

    public init(_ networks: [IPNetwork]) {
        self.networks = networks
    }

    /// Whether a client at `address` is served. An IPv4 client of a dual-stack listener (`::`) arrives
    /// as an IPv4-mapped address (`::ffff:192.168.1.5`) and is judged as the IPv4 address too; no other
    /// IPv6 form that carries an IPv4 address is (6to4 or NAT64 sources are set by whoever sends them).
    /// An unknown address (not an IP connection) is never served.
    public func admits(_ address: IPAddress?) -> Bool {
        guard let address else { return false }
        if networks.contains(where: { $0.contains(address) }) { return true }
        guard Self.ipv4Mapped.contains(address), let ipv4 = address.embeddedIPv4 else { return false }
        return networks.contains { $0.contains(ipv4) }
    }

    /// Whether the accepted `client` is served (by its peer address).
    public func admits(_ client: StreamSocket) -> Bool {
        admits(client.peer)
    }

    private static let ipv4Mapped = IPNetwork(IPAddress(v6: 0, 0xFFFF_0000_0000), prefixLength: 96)
}
