import ApplianceSetup
import CurlSupport
import WavedialCore

/// What the web page's settings screen and captive portal need of the radio (``WebRoutes``): where
/// `wavedial setup apply` stored the current settings, the settings inbox it applies, the Wi-Fi scan and hotspot
/// files the image's hotspot script writes, the tz folder, and the database's location. Files only, read on the
/// web client's thread (never the controller's queue). Any thread.
public struct WebSetup: Sendable {
    /// What setup apply writes under (`/` on the radio).
    public var root: String
    public var inboxFile: String
    public var wifiScanFile: String
    public var hotspotFile: String
    public var zoneInfo: ZoneInfoDirectory
    /// The network the radio is to join, for the display's walk-through.
    public var joining: SetupJoining
    /// The radio's location as stored (the database's, else the configuration's); nil when none is set.
    public var location: @Sendable () -> Coordinate?

    public init(root: String, inboxFile: String, wifiScanFile: String, hotspotFile: String, zoneInfo: ZoneInfoDirectory,
                joining: SetupJoining, location: @escaping @Sendable () -> Coordinate?) {
        self.root = root
        self.inboxFile = inboxFile
        self.wifiScanFile = wifiScanFile
        self.hotspotFile = hotspotFile
        self.zoneInfo = zoneInfo
        self.joining = joining
        self.location = location
    }

    /// The setup access point, when it is up.
    func hotspot() -> SetupHotspot? {
        SetupHotspot.read(at: hotspotFile)
    }

    /// The access point when it is up and `peer` is on it (in its address's /24): a client the access point's
    /// WPA2 password let in.
    func hotspot(reaching peer: IPAddress?) -> SetupHotspot? {
        guard let peer, let hotspot = hotspot(), let address = IPAddress(hotspot.address) else { return nil }
        // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; no other IPv6 form (6to4, NAT64) is
        // on the access point.
        let client = Self.v4Mapped.contains(peer) ? peer.embeddedIPv4 : peer
        guard let client, IPNetwork(address, prefixLength: 24).contains(client) else { return nil }
        return hotspot
    }

    private static let v4Mapped = IPNetwork(IPAddress(v6: 0, 0xFFFF_0000_0000), prefixLength: 96)
}
