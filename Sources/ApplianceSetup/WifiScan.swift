import Foundation
import PrintableText

/// The Wi-Fi networks around the radio, from the text of `iw dev wlan0 scan` (which the image's hotspot script
/// saves before it opens the access point, when the radio's Wi-Fi can no longer scan): the list the setup page
/// offers to pick from.
///
/// `iw` prints one block a BSS, opened by an unindented `BSS 00:11:22:33:44:55(on wlan0)` line, its fields
/// indented below: `signal: -52.00 dBm`, `SSID: name` (bytes that are not printable ASCII, a backslash and a
/// leading or trailing space written `\xNN`), `RSN:` (WPA2/WPA3) and `WPA:` elements, `capability: … Privacy`.
/// Every byte comes from the air, so everything is bounded (``maximumFileSize``, ``maximumNetworks``, SSIDs of
/// 1 to 32 bytes) and names are made printable before anything shows them. Pure values: any thread.
public enum WifiScan {
    /// What a network asks of whoever joins it.
    public enum Security: String, Sendable, Codable {
        case open
        /// WEP (`Privacy` without WPA elements): the radio cannot join it.
        case wep
        case wpa
        /// RSN with a pre-shared key: what the radio joins.
        case wpa2
        /// RSN with SAE only: the radio (WPA-PSK) cannot join it.
        case wpa3
    }

    /// One network, by name: the strongest of its access points.
    public struct Network: Sendable, Equatable, Codable {
        /// The SSID as text to show: invalid UTF-8 as U+FFFD, control characters as spaces, bidi marks dropped.
        public let ssid: String
        /// The strongest signal heard, in dBm; nil when `iw` gave none.
        public let signalDBm: Double?
        public let security: Security

        public init(ssid: String, signalDBm: Double?, security: Security) {
            self.ssid = ssid
            self.signalDBm = signalDBm
            self.security = security
        }

        /// Whether joining needs a password (WPA2 or WPA3; WEP and WPA too, which the radio refuses).
        public var needsPassword: Bool { security != .open }

        enum CodingKeys: String, CodingKey {
            case ssid
            case signalDBm = "signal_dbm"
            case security
            case needsPassword = "needs_password"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ssid = try container.decode(String.self, forKey: .ssid)
            signalDBm = try container.decodeIfPresent(Double.self, forKey: .signalDBm)
            security = try container.decode(Security.self, forKey: .security)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ssid, forKey: .ssid)
            try container.encode(signalDBm, forKey: .signalDBm)
            try container.encode(security, forKey: .security)
            try container.encode(needsPassword, forKey: .needsPassword)
        }
    }

    /// The most of a scan file read: a scan of a crowded block of flats is about 100 KiB.
    public static let maximumFileSize = 256 * 1024
    /// The most networks listed.
    public static let maximumNetworks = 64

    /// The networks of the scan file at `path`, strongest first; empty when there is no file or it cannot be read.
    public static func networks(inFile path: String) -> [Network] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumFileSize) else { return [] }
        return networks(inScan: Array(data))
    }

    /// The networks of `iw`'s scan output (at most ``maximumFileSize`` bytes of it are read), one a name, the
    /// strongest first (then by name), at most ``maximumNetworks``. Blocks without a usable SSID (hidden
    /// networks, names of more than 32 bytes) are left out.
    public static func networks(inScan bytes: [UInt8]) -> [Network] {
        var strongest: [String: Network] = [:]
        var block: BSSBlock?
        func close() {
            guard let network = block?.network else { return }
            if let known = strongest[network.ssid], (known.signalDBm ?? -.infinity) >= (network.signalDBm ?? -.infinity) { return }
            strongest[network.ssid] = network
        }
        for line in bytes.prefix(maximumFileSize).split(separator: 0x0A, omittingEmptySubsequences: true) {
            if line.starts(with: Array("BSS ".utf8)) {
                close()
                block = BSSBlock()
            } else {
                block?.read(line)
            }
        }
        close()
        return strongest.values.sorted { first, second in
            let one = first.signalDBm ?? -.infinity, other = second.signalDBm ?? -.infinity
            return one != other ? one > other : first.ssid < second.ssid
        }.prefix(maximumNetworks).map { $0 }
    }

    /// The bytes `iw` escaped as `\xNN`; a backslash not followed by two hex digits is taken as it is.
    static func unescaped(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == 0x5C, index + 3 < text.endIndex,
               text[index + 1] == 0x78, let high = SetupRules.hexValue(text[index + 2]), let low = SetupRules.hexValue(text[index + 3]) {
                bytes.append(high << 4 | low)
                index += 4
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        return bytes
    }

    /// What one BSS block said so far.
    private struct BSSBlock {
        var ssid: [UInt8]?
        var signalDBm: Double?
        var hasRSN = false
        var hasWPA = false
        var hasPrivacy = false
        var hasPSK = false
        var hasSAE = false

        mutating func read(_ line: ArraySlice<UInt8>) {
            let field = line.drop { $0 == 0x09 || $0 == 0x20 }
            if ssid == nil, let value = Self.value(of: "SSID:", in: field) {
                // One space follows the colon; the SSID's own leading space is escaped.
                ssid = WifiScan.unescaped(value.first == 0x20 ? value.dropFirst() : value)
            } else if signalDBm == nil, let value = Self.value(of: "signal:", in: field) {
                let number = String(decoding: value.prefix(32), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    .split(separator: " ").first.flatMap { Double($0) }
                signalDBm = number.flatMap { $0.isFinite && (-150...30).contains($0) ? $0 : nil }
            } else if field.starts(with: Array("RSN:".utf8)) {
                hasRSN = true
            } else if field.starts(with: Array("WPA:".utf8)) {
                hasWPA = true
            } else if let value = Self.value(of: "capability:", in: field) {
                hasPrivacy = hasPrivacy || value.split(separator: 0x20).contains { $0.elementsEqual("Privacy".utf8) }
            } else if let value = Self.value(of: "* Authentication suites:", in: field) {
                // The suites of the RSN or WPA element above: PSK, SAE (WPA3), IEEE 802.1X, …
                let suites = value.split(separator: 0x20)
                hasPSK = hasPSK || suites.contains { $0.elementsEqual("PSK".utf8) || $0.elementsEqual("PSK/SHA-256".utf8) }
                hasSAE = hasSAE || suites.contains { $0.elementsEqual("SAE".utf8) }
            }
        }

        /// The network, when its SSID is one: 1 to 32 bytes that show as something.
        var network: Network? {
            guard let ssid, (1...32).contains(ssid.count) else { return nil }
            let name = StationText.printable(String(decoding: ssid, as: UTF8.self))
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return Network(ssid: name, signalDBm: signalDBm, security: security)
        }

        private var security: Security {
            if hasRSN { return hasSAE && !hasPSK ? .wpa3 : .wpa2 }
            if hasWPA { return .wpa }
            return hasPrivacy ? .wep : .open
        }

        /// What follows `name` at the start of `field`; nil when the field is another.
        private static func value(of name: String, in field: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
            guard field.starts(with: name.utf8) else { return nil }
            return field.dropFirst(name.utf8.count)
        }
    }
}
