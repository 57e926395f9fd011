import CurlSupport
import PrintableText
import WavedialCore

/// `[mpd]` and `[web]`: a TCP server of the daemon's for the household's controls, off by default.
///
/// Read by ``Configuration``; any thread. A `bind` beyond loopback with an empty `password` is an error:
/// on the LAN anything that changes the radio's state needs the password.
public struct ListenerSettings: Sendable, Equatable {
    public var isEnabled = false
    /// The numeric address to listen on (`127.0.0.1`, `0.0.0.0`, `::`, a LAN address).
    public var bind = "127.0.0.1"
    public var port: Int
    /// Needed for anything that changes state; empty: none asked (loopback only).
    public var password = ""
    /// Clients from other addresses are closed as they connect (checked with `ClientAllowList`).
    public var allow = ListenerSettings.defaultAllow

    /// Loopback and the private LAN ranges: the household, not the internet.
    public static let defaultAllow: [IPNetwork] = [
        "127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10",
    ].compactMap { IPNetwork($0) }

    /// The longest password read: it travels in a protocol line (MPD's are at most 4 KiB).
    public static let maximumPasswordLength = 256

    public init(port: Int) {
        self.port = port
    }

    /// Whether `bind` is a loopback address (no password needed there).
    public var isLoopbackOnly: Bool {
        guard let address = IPAddress(bind) else { return false }
        return IPNetwork.loopback.contains { $0.contains(address) }
    }

    init(_ section: ConfigSection, defaultPort: Int) {
        self.init(port: defaultPort)
        isEnabled = section.bool("enabled", default: isEnabled)
        let address = section.string("bind", default: bind)
        if IPAddress(address) == nil {
            section.report("bind", "must be a numeric IPv4 or IPv6 address (\"127.0.0.1\", \"0.0.0.0\", \"::\"), not \"\(StationText.printable(String(address.prefix(60))))\"")
        } else {
            bind = address
        }
        port = section.int("port", default: port, range: 1...65535)
        let secret = section.string("password", default: password)
        // Spaces are fine (MPD's clients quote the argument); control characters would break a protocol line.
        if secret.utf8.count > Self.maximumPasswordLength || !StationText.isPrintable(secret) {
            section.report("password", "must be at most \(Self.maximumPasswordLength) bytes of printable characters")
        } else {
            password = secret
        }
        let ranges = section.strings("allow", default: allow.map(\.description))
        if ranges.isEmpty || ranges.count > 256 {
            section.report("allow", "must hold 1 to 256 ranges (an empty list lets no client in: set enabled = false instead)")
        }
        allow = ranges.prefix(256).compactMap { text in
            guard text.utf8.count <= 64, let network = IPNetwork(text) else {
                section.report("allow", "must hold addresses or ranges such as \"192.168.0.0/16\" or \"::1\", not \"\(StationText.printable(String(text.prefix(60))))\"")
                return nil
            }
            return network
        }
        if isEnabled && !isLoopbackOnly && password.isEmpty {
            section.report("password", "must be set when bind is \"\(bind)\", beyond loopback: anyone on the network could change what the radio plays "
                + "(or bind to \"127.0.0.1\")")
        }
    }
}
