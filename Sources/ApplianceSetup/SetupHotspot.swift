import Foundation
import PrintableText
import TOMLKit
import WavedialCore

/// The radio's own setup access point, as the image's hotspot script describes it while it is up
/// (`/run/wavedial-setup/hotspot`): `ssid = "Wavedial-3F2A"`, `password = "…"`, `address = "10.42.0.1"`. Its
/// presence makes the web page a captive portal and the display walk the owner through joining it. Pure
/// values: any thread.
public struct SetupHotspot: Sendable, Equatable {
    /// The access point's network name, printable.
    public let ssid: String
    /// Its WPA2 passphrase, shown on the display (the radio's owner stands in front of it).
    public let password: String
    /// The radio's IPv4 address on it, dotted (`10.42.0.1`): the portal's host.
    public let address: String

    public init(ssid: String, password: String, address: String) {
        self.ssid = ssid
        self.password = password
        self.address = address
    }

    /// The file's largest size: three short keys.
    static let maximumFileSize = 4096

    /// The access point the file at `path` describes; nil when there is none (no file: no access point) or the
    /// file does not say all three values (an address that is not dotted IPv4, an empty name).
    public static func read(at path: String) -> SetupHotspot? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumFileSize) else { return nil }
        return SetupHotspot(text: String(decoding: data, as: UTF8.self))
    }

    /// The access point `text` (the file's TOML) describes; nil when it does not say all three values.
    public init?(text: String) {
        guard !text.utf8.contains(0), let file = try? ConfigFile(text: text, source: "hotspot") else { return nil }
        func value(_ key: String) -> String? {
            file.root[key]?.string.map { StationText.printable($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let ssid = value("ssid"), ssid.utf8.count <= 32, let password = value("password"), password.utf8.count <= 63,
              let address = value("address"), Self.isDottedIPv4(address) else { return nil }
        self.init(ssid: ssid, password: password, address: address)
    }

    private static func isDottedIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.utf8.count) && part.utf8.allSatisfy { (0x30...0x39).contains($0) } && (Int(part) ?? 256) <= 255
        }
    }
}
