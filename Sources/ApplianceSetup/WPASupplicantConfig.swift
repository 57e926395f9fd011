/// The radio's `wpa_supplicant-wlan0.conf`: one WPA2 network and the regulatory country.
///
/// The SSID is written in hex (safe for any bytes, no quoting), the key as its 64-hex-digit PSK; the
/// passphrase is never stored. Management frame protection is offered (`ieee80211w=1`, WPA-PSK-SHA256 beside
/// WPA-PSK), not required, so WPA2 routers without it still connect.
public struct WPASupplicantConfig: Sendable, Equatable {
    /// The network's name, as bytes.
    public var ssid: [UInt8]?
    /// The 32-byte pre-shared key.
    public var psk: [UInt8]?
    /// ISO 3166 alpha-2, uppercase.
    public var country: String?

    public init(ssid: [UInt8]? = nil, psk: [UInt8]? = nil, country: String? = nil) {
        self.ssid = ssid
        self.psk = psk
        self.country = country
    }

    /// Reads back a file this type wrote (its `ssid=`, `psk=` and `country=` lines; anything else is ignored).
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let value = String(trimmed[trimmed.index(after: equals)...])
            switch trimmed[..<equals] {
            case "ssid": ssid = Self.bytes(hex: value)
            case "psk": psk = Self.bytes(hex: value).flatMap { $0.count == 32 ? $0 : nil }
            case "country": country = SetupRules.countryCode(value)
            default: break
            }
        }
    }

    /// The file's text. A network is written only with both its SSID and its key.
    public var text: String {
        var lines = ["# Written by wavedial setup apply from wavedial-setup.toml.",
                     "ctrl_interface=DIR=/run/wpa_supplicant", "update_config=0"]
        if let country { lines.append("country=\(country)") }
        if let ssid, let psk {
            lines += ["", "network={", "\tssid=\(Self.hex(ssid))", "\tpsk=\(Self.hex(psk))",
                      "\tkey_mgmt=WPA-PSK WPA-PSK-SHA256", "\tieee80211w=1", "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The network's name and the country without the key, in lines ``init(text:)`` reads back: what may be
    /// shown to anyone (``SetupPlan/Path/wifiNetwork``).
    public var summaryText: String {
        var lines = ["# The Wi-Fi network wavedial setup apply configured, without its key."]
        if let ssid { lines.append("ssid=\(Self.hex(ssid))") }
        if let country { lines.append("country=\(country)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Lowercase hex digits, two a byte.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a string of hex digit pairs; nil for anything else.
    static func bytes(hex text: String) -> [UInt8]? {
        let values = text.utf8.map(SetupRules.hexValue)
        guard !values.isEmpty, values.count % 2 == 0, !values.contains(nil) else { return nil }
        let nibbles = values.compactMap { $0 }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }
}
