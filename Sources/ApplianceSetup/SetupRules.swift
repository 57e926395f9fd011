import Foundation
import PrintableText

/// What each value of `wavedial-setup.toml` must be: one pure check a key, returning what is wrong (a message
/// for "line N: [section] key: …") or nil. Any thread.
enum SetupRules {
    /// `[wifi] ssid`: 1 to 32 bytes (802.11's limit) of UTF-8 text without control characters.
    static func ssidProblem(_ ssid: String) -> String? {
        if ssid.utf8.isEmpty || ssid.utf8.count > 32 {
            return "must be 1 to 32 bytes long (this one is \(ssid.utf8.count))"
        }
        if ssid.unicodeScalars.contains(where: isControl) { return "must not hold control characters" }
        return nil
    }

    /// `[wifi] password`: a WPA2 passphrase (8 to 63 printable ASCII characters) or a raw PSK (64 hex digits).
    static func wifiPasswordProblem(_ password: String) -> String? {
        if isRawPSK(password) { return nil }
        guard password.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return "must be plain ASCII letters, digits, spaces and punctuation (WPA2 allows no other characters)"
        }
        guard (8...63).contains(password.utf8.count) else {
            return "must be 8 to 63 characters long, or 64 hex digits (this one has \(password.utf8.count))"
        }
        return nil
    }

    /// Whether `password` is a raw pre-shared key, 64 hex digits, rather than a passphrase.
    static func isRawPSK(_ password: String) -> Bool {
        password.utf8.count == 64 && password.utf8.allSatisfy(isHexDigit)
    }

    /// `[wifi] country` and the like: two ASCII letters, uppercased; nil when it is not that.
    static func countryCode(_ text: String) -> String? {
        guard text.utf8.count == 2, text.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        return text.uppercased()
    }

    /// `[system] hostname`, lowercased first: one RFC 1123 label, 1 to 63 of a–z, 0–9 and '-', not starting or
    /// ending with '-'.
    static func hostnameProblem(_ name: String) -> String? {
        guard (1...63).contains(name.utf8.count) else { return "must be 1 to 63 characters long" }
        guard name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
            return "may hold only the letters a to z, digits and '-'"
        }
        if name.hasPrefix("-") || name.hasSuffix("-") { return "must not start or end with '-'" }
        return nil
    }

    /// `[system] timezone`, as a name only (whether the zone exists is ``ZoneInfoDirectory/hasZone(_:)``'s
    /// question): relative, no `..` or empty parts, and only the characters tz names use.
    static func timezoneNameProblem(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/"),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              name.utf8.allSatisfy({ isASCIIAlphanumeric($0) || "/_+-".utf8.contains($0) })
        else { return "must be a time zone name such as \"Europe/Berlin\"" }
        return nil
    }

    /// `[web] password`: 1 to 128 characters without control characters or bidi marks, at most 256 bytes
    /// (what the daemon's `[web] password` takes).
    static func webPasswordProblem(_ password: String) -> String? {
        guard (1...128).contains(password.count), password.utf8.count <= 256 else {
            return "must be 1 to 128 characters long"
        }
        if !StationText.isPrintable(password) { return "must not hold control characters or bidi marks" }
        return nil
    }

    /// `[audio] device`: an ALSA PCM name (`default`, `hw:1,0`, `plughw:CARD=DAC,DEV=0`): 1 to 128 printable
    /// ASCII characters, no spaces.
    static func audioDeviceProblem(_ device: String) -> String? {
        guard (1...128).contains(device.utf8.count), device.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "must be an ALSA device name such as \"default\" or \"hw:1,0\" (1 to 128 characters, no spaces)"
        }
        return nil
    }

    /// `[catalog] servers`: at most 8 `http://` or `https://` URLs with a host, each 1 to 256 printable ASCII
    /// characters without spaces (what curl takes as given).
    static func catalogServersProblem(_ servers: [String]) -> String? {
        guard servers.count <= 8 else { return "must list at most 8 servers" }
        for server in servers {
            let bytes = server.utf8
            guard (1...256).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                return "must hold URLs of 1 to 256 characters without spaces, such as \"https://de1.api.radio-browser.info\""
            }
            let scheme = server.prefix(while: { $0 != ":" }).lowercased()
            guard scheme == "http" || scheme == "https", server.dropFirst(scheme.count).hasPrefix("://"),
                  let host = server.dropFirst(scheme.count + 3).split(separator: "/", omittingEmptySubsequences: false).first,
                  !host.isEmpty, !host.hasPrefix(":"), !host.contains("@") else {
                return "must hold http:// or https:// URLs with a host, not \"\(server)\""
            }
        }
        return nil
    }

    /// C0, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    /// The value of an ASCII hex digit (either case); nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
