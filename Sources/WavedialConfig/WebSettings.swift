import CurlSupport
import WavedialCore

/// `[web]`: the web page and its JSON API, served by `wavediald` over HTTP (off by default).
public struct WebSettings: Sendable, Equatable {
    /// Whether the daemon serves the page.
    public var isEnabled = false
    /// The numeric IPv4 or IPv6 address to listen on (`0.0.0.0` or `::` for every interface).
    public var bind = "127.0.0.1"
    public var port = 8080
    /// Needed for anything that changes the radio's state; empty: none (allowed only on loopback).
    public var password = ""
    /// The clients served; any other is closed on accept.
    public var allow = WebSettings.defaultAllow

    /// Loopback and the private LAN ranges: what a household radio answers by default.
    public static let defaultAllow: [IPNetwork] = [
        "127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10",
    ].compactMap { IPNetwork($0) }

    public init() {}

    /// Whether `bind` is a loopback address, the only place the page may go without a password.
    public var bindsLoopback: Bool {
        guard let address = IPAddress(bind) else { return false }
        return IPNetwork.loopback.contains { $0.contains(address) }
    }

    init(_ section: ConfigSection) {
        isEnabled = section.bool("enabled", default: isEnabled)
        let address = section.string("bind", default: bind)
        if IPAddress(address) == nil {
            section.report("bind", "must be a numeric IPv4 or IPv6 address (\"127.0.0.1\", \"0.0.0.0\", \"::\"), not \"\(address.prefix(60))\"")
        } else {
            bind = address
        }
        port = section.int("port", default: port, range: 1...65535)
        let secret = section.string("password", default: password)
        if secret.utf8.count > 256 || secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            section.report("password", "must be at most 256 printable characters")
        } else {
            password = secret
        }
        var networks: [IPNetwork] = []
        for text in section.strings("allow", default: allow.map(\.description)).prefix(1000) {
            guard let network = IPNetwork(text) else {
                section.report("allow", "must list networks in CIDR notation (\"192.168.1.0/24\", \"::1/128\"), not \"\(text.prefix(60))\"")
                continue
            }
            networks.append(network)
        }
        allow = networks
        if isEnabled && password.isEmpty && !bindsLoopback {
            section.report("password", "must be set when bind is not a loopback address (\(bind)): "
                + "anyone on the network could change the radio; set a password or bind = \"127.0.0.1\"")
        }
    }
}
