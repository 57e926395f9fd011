import ApplianceSetup
import FuzzDriver

/// `iw dev wlan0 scan`'s output, whose SSIDs come from the air, read as the setup page's list of networks: it
/// must never trap, list at most 64 networks, one a name, strongest first, each name 1 to 32 bytes' worth of
/// printable text. The same bytes as the hotspot file.
@_cdecl("fuzz_wifi_scan_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzWifiScan(UnsafeRawPointer(data), count) }
}

func fuzzWifiScan(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    let networks = WifiScan.networks(inScan: bytes)
    precondition(networks.count <= WifiScan.maximumNetworks)
    precondition(Set(networks.map(\.ssid)).count == networks.count)
    for network in networks {
        // Each byte of the SSID is at most one scalar (an invalid one becomes U+FFFD).
        precondition((1...32).contains(network.ssid.unicodeScalars.count))
        precondition(!network.ssid.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        precondition(network.signalDBm.map { $0.isFinite && (-150...30).contains($0) } ?? true)
    }
    for (first, second) in zip(networks, networks.dropFirst()) {
        precondition((first.signalDBm ?? -.infinity) >= (second.signalDBm ?? -.infinity))
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let hotspot = SetupHotspot(text: text) {
        precondition(!hotspot.ssid.isEmpty && hotspot.ssid.utf8.count <= 32 && !hotspot.address.isEmpty)
    }
    return 0
}
