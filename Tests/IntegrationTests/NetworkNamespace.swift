import Foundation
import WavedialTestSupport

/// A network namespace joined to this machine by a veth pair (iproute2, needs root): the host end has
/// ``hostAddress``, the namespace end ``insideAddress`` (a /30 from 198.18.0.0/15, the range set aside for
/// network tests), and nothing else. No route leads further, and the namespace's name lookups use files
/// of its own (``hostsFile``, a resolver at the namespace's own 127.0.0.1, where nothing answers), so a
/// daemon inside cannot reach a real network or DNS server.
final class NetworkNamespace {
    let name: String
    let hostAddress: String
    let insideAddress: String
    private let hostLink: String
    private let insideLink: String
    /// The namespace's /etc/hosts (written in place, so the bind mount sees each change).
    let hostsFile: URL
    private let resolverFile: URL
    private let nsswitchFile: URL

    /// - Parameter privateAddresses: take the /30 from 10.250.0.0/15 instead, so that seen from inside, the
    ///   host end is a machine on a private LAN (what the address policy lets a typed URL reach).
    init(directory: TemporaryDirectory, privateAddresses: Bool = false) throws {
        guard getuid() == 0 else {
            throw FixtureError("network namespaces need root (CI runs the tests as root); uid is \(getuid())")
        }
        hostsFile = URL(fileURLWithPath: directory.path("netns-hosts"))
        resolverFile = URL(fileURLWithPath: directory.path("netns-resolv.conf"))
        nsswitchFile = URL(fileURLWithPath: directory.path("netns-nsswitch.conf"))
        try "127.0.0.1 localhost\n".write(to: hostsFile, atomically: false, encoding: .utf8)
        try "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n".write(to: resolverFile, atomically: true, encoding: .utf8)
        try "passwd: files\ngroup: files\nhosts: files dns\n".write(to: nsswitchFile, atomically: true, encoding: .utf8)
        // Parallel test processes pick at random; a taken name or link makes `ip` fail, and another is tried.
        var attempt = 0
        while true {
            let index = Int.random(in: 0..<32_768)
            let tag = String(index, radix: 16)
            let base = index * 4
            let (name, hostLink, insideLink) = ("wavedial-\(tag)", "wdh\(tag)", "wdn\(tag)")
            let prefix = privateAddresses ? "10.\(250 + base / 65_536)" : "198.\(18 + base / 65_536)"
            let hostAddress = "\(prefix).\(base / 256 % 256).\(base % 256 + 1)"
            let insideAddress = "\(prefix).\(base / 256 % 256).\(base % 256 + 2)"
            do {
                try Self.create(name: name, hostLink: hostLink, insideLink: insideLink,
                                hostAddress: hostAddress, insideAddress: insideAddress)
                (self.name, self.hostLink, self.insideLink) = (name, hostLink, insideLink)
                (self.hostAddress, self.insideAddress) = (hostAddress, insideAddress)
                return
            } catch {
                attempt += 1
                if attempt == 5 { throw error }
            }
        }
    }

    private static func create(name: String, hostLink: String, insideLink: String,
                               hostAddress: String, insideAddress: String) throws {
        try ip(["netns", "add", name])
        do {
            try ip(["link", "add", hostLink, "type", "veth", "peer", "name", insideLink])
            try ip(["link", "set", insideLink, "netns", name])
            try ip(["addr", "add", "\(hostAddress)/30", "dev", hostLink])
            try ip(["link", "set", hostLink, "up"])
            try ip(["-n", name, "addr", "add", "\(insideAddress)/30", "dev", insideLink])
            try ip(["-n", name, "link", "set", insideLink, "up"])
            try ip(["-n", name, "link", "set", "lo", "up"])
        } catch {
            // Undo this attempt (its veth pair goes with the namespace); a name taken by another process fails above.
            _ = try? ip(["netns", "delete", name])
            throw error
        }
    }

    /// A launcher for ``DaemonProcess``: runs the command inside, with the namespace's own hosts,
    /// resolver and name-service files bind-mounted in its private mount namespace.
    var launcher: [String] {
        let script = #"mount --bind "$1" /etc/hosts && mount --bind "$2" /etc/resolv.conf && mount --bind "$3" /etc/nsswitch.conf && shift 3 && exec "$@""#
        return ["ip", "netns", "exec", name, "sh", "-c", script, "netns", hostsFile.path, resolverFile.path, nsswitchFile.path]
    }

    /// Cuts the link (the namespace end goes down: its route goes, connecting fails with "network unreachable").
    func cut() throws { try Self.ip(["-n", name, "link", "set", insideLink, "down"]) }

    /// Restores the link; the address stays, so its route comes back with it.
    func restore() throws { try Self.ip(["-n", name, "link", "set", insideLink, "up"]) }

    /// Deletes the namespace (its veth end, and so the pair, goes with it) and the host end if still there.
    func remove() {
        _ = try? Self.ip(["netns", "delete", name])
        _ = try? Self.ip(["link", "delete", hostLink])
    }

    private static func ip(_ arguments: [String]) throws {
        try TestMedia.run("ip", arguments)
    }
}
