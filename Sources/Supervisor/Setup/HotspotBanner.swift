import ApplianceSetup

/// The display's walk-through while the setup access point is up, as banner steps shown in turn, each short
/// enough for one row of the smallest LCD (``width``): "Join Wi-Fi", "Wavedial-3F2A", "Password", "k7p2m9qx",
/// "Open", "http://10.42.0.1"; once the settings screen has sent a network, "Connecting to", "HomeNet...". A
/// value longer than a row goes on over several steps. Pure: any thread.
enum HotspotBanner {
    /// The columns of a 16x2 LCD: no step scrolls on any display.
    static let width = 16

    /// The steps for `hotspot`, or for joining `network` when one was sent.
    static func steps(for hotspot: SetupHotspot, joining network: String?) -> [String] {
        if let network {
            return ["Connecting to"] + pieces(network + "...")
        }
        let page = "http://" + hotspot.address
        return ["Join Wi-Fi"] + pieces(hotspot.ssid) + ["Password"] + pieces(hotspot.password)
            + (page.count <= width ? ["Open", page] : ["Open in browser", "http://"] + pieces(hotspot.address))
    }

    /// `text` in pieces of at most ``width`` characters.
    private static func pieces(_ text: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            pieces.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return pieces
    }
}
