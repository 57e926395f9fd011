import CurlSupport
import Foundation
import PrintableText

/// Finds Radio Browser API servers: DNS SRV `_api._tcp.radio-browser.info`, else the
/// addresses of `all.api.radio-browser.info` named by reverse lookup; shuffled, so that
/// radios spread their load, as Radio Browser asks of its clients.
public enum ServerDiscovery {
    public static let srvName = "_api._tcp.radio-browser.info"
    public static let fallbackHost = "all.api.radio-browser.info"

    /// Where a discovered server may be: public addresses only. Radio Browser's servers are public; a
    /// name from DNS that resolves into the home network or to the radio itself is not one of them.
    public static let addressPolicy = AddressPolicy.catalog.guarding("a discovered Radio Browser server")

    /// Base URLs (`https://de1.api.radio-browser.info`) in the order to try them. Blocks on DNS.
    public static func discover() -> [String] {
        let fromSRV = SRVRecord.lookup(srvName).map(\.target)
        let hosts = fromSRV.isEmpty ? reverseNamedAddresses(of: fallbackHost) : fromSRV
        return baseURLs(for: hosts)
    }

    /// `https://host` for each distinct host (trailing dots dropped), shuffled; a name that is not a
    /// plain host name (DNS may carry any byte: `@`, `/`, `:` would make another URL) is left out.
    static func baseURLs<G: RandomNumberGenerator>(for hosts: [String], using generator: inout G) -> [String] {
        var seen = Set<String>()
        let unique = hosts
            .map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            .filter { isHostName($0) && seen.insert($0.lowercased()).inserted }
        return unique.shuffled(using: &generator).map { "https://\($0)" }
    }

    /// Letters, digits, `-` and `.`, at most 253 characters, no empty label: a name TLS can verify.
    static func isHostName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isLabel)
    }

    private static func isLabel(_ label: Substring) -> Bool {
        guard !label.isEmpty, label.utf8.count <= 63, label.first != "-", label.last != "-" else { return false }
        return label.utf8.allSatisfy { byte in
            let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            return letter || digit || byte == UInt8(ascii: "-")
        }
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
                names.append(String(nulTerminated: name))
            }
            cursor = entry.pointee.ai_next
        }
        return names
    }
}
