import Foundation

/// Finds Radio Browser API servers: DNS SRV `_api._tcp.radio-browser.info`, else the
/// addresses of `all.api.radio-browser.info` named by reverse lookup; shuffled, so that
/// radios spread their load, as Radio Browser asks of its clients.
public enum ServerDiscovery {
    public static let srvName = "_api._tcp.radio-browser.info"
    public static let fallbackHost = "all.api.radio-browser.info"

    /// Base URLs (`https://de1.api.radio-browser.info`) in the order to try them. Blocks on DNS.
    public static func discover() -> [String] {
        let fromSRV = SRVRecord.lookup(srvName).map(\.target)
        let hosts = fromSRV.isEmpty ? reverseNamedAddresses(of: fallbackHost) : fromSRV
        return baseURLs(for: hosts)
    }

    /// `https://host` for each distinct host (trailing dots dropped), shuffled.
    static func baseURLs<G: RandomNumberGenerator>(for hosts: [String], using generator: inout G) -> [String] {
        var seen = Set<String>()
        let unique = hosts
            .map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
        return unique.shuffled(using: &generator).map { "https://\($0)" }
    }

    static func baseURLs(for hosts: [String]) -> [String] {
        var generator = SystemRandomNumberGenerator()
        return baseURLs(for: hosts, using: &generator)
    }

    /// The names of the addresses `host` resolves to (`getaddrinfo`, then `getnameinfo`
    /// with `NI_NAMEREQD`), since TLS needs a name, not an address.
    static func reverseNamedAddresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "443", &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var names: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NAMEREQD) == 0 {
                names.append(String(cString: name))
            }
            cursor = entry.pointee.ai_next
        }
        return names
    }
}
