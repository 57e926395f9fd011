/// The socket unit a TCP server of the daemon's listens through under systemd (`wavediald-mpd.socket`,
/// `wavediald-web.socket`),
/// written at boot by `wavedial config sockets` (run as the systemd generator `wavedial-generator`) from
/// the server's section of the config: `ListenStream=` its `bind` and `port`, `IPAddressAllow=` its
/// `allow` with everything else denied. A socket unit's address lists apply to the traffic of the sockets
/// it made (the listener and the connections accepted from it), not to the service's own: set on
/// `wavediald.service`, the list would also stop the streams the radio plays.
///
/// Pure; any thread.
public enum SystemdSocketUnit {
    /// `wavediald-NAME.socket`.
    public static func fileName(for name: String) -> String { "wavediald-\(name).socket" }

    /// The unit's text for the server `name` (`mpd`, `web`), whose section is `settings`.
    public static func text(name: String, settings: ListenerSettings, configPath: String) -> String {
        let address = settings.bind.contains(":") ? "[\(settings.bind)]:\(settings.port)" : "\(settings.bind):\(settings.port)"
        var lines = [
            "# Written by wavedial-generator from [\(name)] in \(configPath): edit that file, not this one.",
            "[Unit]",
            "Description=Wavedial's \(name) server socket",
            "Documentation=man:wavedial(1)",
            "",
            "[Socket]",
            "ListenStream=\(address)",
            "FileDescriptorName=\(name)",
            "Service=wavediald.service",
        ]
        // "::" takes IPv4 clients too (as IPv4-mapped addresses, which the allow list reads as IPv4).
        if settings.bind == "::" { lines.append("BindIPv6Only=both") }
        lines += [
            "IPAddressDeny=any",
            "IPAddressAllow=\(settings.allow.map(\.description).joined(separator: " "))",
            "",
            "[Install]",
            "WantedBy=sockets.target",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
