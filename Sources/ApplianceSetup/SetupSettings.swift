import Foundation
import WavedialCore

/// What `wavedial-setup.toml` asks for, read and checked: every value here is one the radio can apply. A key
/// absent (or commented out) is nil: left as it is.
public struct SetupSettings: Sendable, Equatable {
    /// How the Wi-Fi network's key is given.
    public enum WifiKey: Sendable, Equatable {
        /// A WPA2 passphrase, 8 to 63 ASCII characters: the PSK is derived from it and the SSID.
        case passphrase(String)
        /// The raw 32-byte PSK (64 hex digits in the file).
        case psk([UInt8])
        /// The key of the network applied before, whose SSID is given again without a password.
        case keptPSK([UInt8])
    }

    /// The Wi-Fi network's name (UTF-8 bytes); with ``wifiKey`` always, both or neither.
    public var wifiSSID: [UInt8]?
    public var wifiKey: WifiKey?
    /// ISO 3166 alpha-2, uppercase.
    public var wifiCountry: String?
    /// Lowercase RFC 1123 label.
    public var hostname: String?
    /// A tz name that exists in the zoneinfo folder (`Europe/Berlin`).
    public var timezone: String?
    public var sshAuthorizedKey: SSHAuthorizedKey?
    /// From `latitude` and `longitude`, or `place` looked up in `zone1970.tab`.
    public var location: Coordinate?
    public var webPassword: String?
    public var audioDevice: String?
    /// `[catalog] servers`: the Radio Browser servers (an own mirror) used instead of DNS discovery; empty
    /// goes back to discovery.
    public var catalogServers: [String]?
    /// The line of each key the file sets, by dotted name (`wifi.password`): the lines applying comments out.
    public var lines: [String: Int] = [:]

    /// Whether the file sets nothing (all commented out): nothing to apply.
    public var isEmpty: Bool { lines.isEmpty }

    /// The keys whose values are secrets: after applying they are not copied into the comment left in the file.
    public static let secretKeys: Set<String> = ["wifi.password", "web.password"]

    public init() {}

    /// Reads and checks the setup file's text.
    /// - Parameters:
    ///   - zoneInfo: the tz folder the time zone, the country and a place are checked against.
    ///   - appliedWifi: the Wi-Fi configuration applied before, if any: an SSID given again without a
    ///     password keeps its key, a password without an SSID is for its network.
    /// - Throws: every problem found, each with its key and line, in the order of the lines.
    public static func read(
        _ text: String, zoneInfo: ZoneInfoDirectory, appliedWifi: WPASupplicantConfig? = nil
    ) throws(SetupProblems) -> SetupSettings {
        let file: ConfigFile
        do {
            file = try ConfigFile(text: text, source: "wavedial-setup.toml")
        } catch {
            throw SetupProblems(error.problems.map(SetupProblem.init))
        }
        var settings = SetupSettings()
        let reader = SetupSettingsReader(file: file, text: text, zoneInfo: zoneInfo)
        reader.readWifi(into: &settings, applied: appliedWifi)
        reader.readSystem(into: &settings)
        reader.readLocation(into: &settings)
        reader.readWebAndAudio(into: &settings)
        reader.readCatalog(into: &settings)
        do {
            try file.finish()
        } catch {
            throw SetupProblems(error.problems.map(SetupProblem.init))
        }
        settings.lines = reader.lines
        return settings
    }
}

/// Every problem found in a setup file, sorted by line.
public struct SetupProblems: Error, Sendable, Equatable {
    public let problems: [SetupProblem]

    public init(_ problems: [SetupProblem]) {
        self.problems = problems.enumerated().sorted { first, second in
            (first.element.line ?? .max, first.offset) < (second.element.line ?? .max, second.offset)
        }.map(\.element)
    }
}

/// The reading of one setup file, section by section (``SetupSettings/read(_:zoneInfo:appliedWifi:)``):
/// problems go to the file's sections, which record their lines.
private final class SetupSettingsReader {
    let file: ConfigFile
    let zoneInfo: ZoneInfoDirectory
    /// The file's lines, without their line breaks.
    let textLines: [Substring]
    private(set) var lines: [String: Int] = [:]

    init(file: ConfigFile, text: String, zoneInfo: ZoneInfoDirectory) {
        self.file = file
        self.zoneInfo = zoneInfo
        textLines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    func readWifi(into settings: inout SetupSettings, applied: WPASupplicantConfig?) {
        let wifi = file.section("wifi")
        let ssid = string(wifi, "ssid")
        let password = string(wifi, "password")
        var ssidBytes: [UInt8]?
        if let ssid {
            if let problem = SetupRules.ssidProblem(ssid) { wifi.report("ssid", problem) } else { ssidBytes = Array(ssid.utf8) }
        }
        var key: SetupSettings.WifiKey?
        if let password {
            if let problem = SetupRules.wifiPasswordProblem(password) {
                wifi.report("password", problem)
            } else if SetupRules.isRawPSK(password) {
                key = WPASupplicantConfig.bytes(hex: password).map(SetupSettings.WifiKey.psk)
            } else {
                key = .passphrase(password)
            }
        }
        // By what the file sets, not what was valid: a bad password is not also a missing one.
        switch (wifi.keys.contains("ssid"), wifi.keys.contains("password")) {
        case (true, false):
            if let ssidBytes, let appliedPSK = applied?.psk, applied?.ssid == ssidBytes {
                key = .keptPSK(appliedPSK)
            } else if ssidBytes != nil {
                wifi.report("ssid", "a password is needed: the radio joins WPA2 networks")
            }
        case (false, true):
            if let appliedSSID = applied?.ssid {
                ssidBytes = appliedSSID
            } else {
                wifi.report("password", "an ssid is needed too: the name of the network it is the password of")
            }
        default:
            break
        }
        if let ssidBytes, let key {
            settings.wifiSSID = ssidBytes
            settings.wifiKey = key
        }
        if let country = string(wifi, "country") {
            if let code = SetupRules.countryCode(country), zoneInfo.countryCodes?.contains(code) ?? true {
                settings.wifiCountry = code
            } else {
                wifi.report("country", "must be a two-letter ISO 3166 country code such as \"DE\" or \"US\"")
            }
        }
    }

    func readSystem(into settings: inout SetupSettings) {
        let system = file.section("system")
        if let hostname = string(system, "hostname").map({ $0.lowercased() }) {
            if let problem = SetupRules.hostnameProblem(hostname) { system.report("hostname", problem) } else { settings.hostname = hostname }
        }
        if let timezone = string(system, "timezone") {
            if let problem = SetupRules.timezoneNameProblem(timezone) {
                system.report("timezone", problem)
            } else if !zoneInfo.hasZone(timezone) {
                system.report("timezone", "is not a time zone this radio knows: use a name from the tz database such as \"Europe/Berlin\"")
            } else {
                settings.timezone = timezone
            }
        }
        if let key = string(system, "ssh_authorized_key") {
            do {
                settings.sshAuthorizedKey = try SSHAuthorizedKey(key)
            } catch {
                system.report("ssh_authorized_key", error.message)
            }
        }
    }

    func readLocation(into settings: inout SetupSettings) {
        let location = file.section("location")
        // Marked as read (and their lines found) whether or not they hold numbers.
        let givesLatitude = present(location, "latitude"), givesLongitude = present(location, "longitude")
        let latitude = location.optionalDouble("latitude", range: -90...90)
        let longitude = location.optionalDouble("longitude", range: -180...180)
        let place = string(location, "place")
        if place != nil, givesLatitude || givesLongitude {
            location.report("place", "give either a place or latitude and longitude, not both")
            return
        }
        if givesLatitude != givesLongitude {
            location.report(givesLatitude ? "longitude" : "latitude", "is needed too: give both latitude and longitude")
        } else if let latitude, let longitude {
            settings.location = Coordinate(latitude: latitude, longitude: longitude)
        }
        guard let place else { return }
        guard let table = zoneInfo.zoneTable else {
            location.report("place", "cannot be looked up (this system has no zone1970.tab): give latitude and longitude instead")
            return
        }
        if let zone = table.zone(forPlace: place) {
            settings.location = zone.coordinate
        } else {
            location.report("place", "is not a city this radio knows offline (those of the tz database, e.g. \"Berlin\"): "
                            + "give latitude and longitude instead")
        }
    }

    func readWebAndAudio(into settings: inout SetupSettings) {
        let web = file.section("web")
        if let password = string(web, "password") {
            if let problem = SetupRules.webPasswordProblem(password) { web.report("password", problem) } else { settings.webPassword = password }
        }
        let audio = file.section("audio")
        if let device = string(audio, "device") {
            if let problem = SetupRules.audioDeviceProblem(device) { audio.report("device", problem) } else { settings.audioDevice = device }
        }
    }

    func readCatalog(into settings: inout SetupSettings) {
        let catalog = file.section("catalog")
        // (A value that is not a list of strings is reported by the file, which then throws.)
        guard present(catalog, "servers"), lines["catalog.servers"] != nil else { return }
        let servers = catalog.strings("servers", default: [])
        if let problem = SetupRules.catalogServersProblem(servers) {
            catalog.report("servers", problem)
        } else {
            settings.catalogServers = servers
        }
    }

    /// The string at `key`, nil when absent, not a string or not on a line of its own (reported); its line is
    /// recorded.
    private func string(_ section: ConfigSection, _ key: String) -> String? {
        guard present(section, key) else { return nil }
        let value = section.optionalString(key)
        return lines["\(section.path).\(key)"] != nil ? value : nil
    }

    /// Whether the section sets `key`. A key that is set must be on one line of its own under the section's
    /// header (`key = value`), so that applying it can comment that line out: its line is recorded, or a
    /// problem reported.
    private func present(_ section: ConfigSection, _ key: String) -> Bool {
        guard section.keys.contains(key) else { return false }
        let dotted = "\(section.path).\(key)"
        guard let number = file.line(of: dotted), number >= 1, number <= textLines.count,
              let value = Self.value(of: key, onLine: textLines[number - 1]) else {
            section.report(key, "must be written as `\(key) = …` on a line of its own under [\(section.path)]")
            return true
        }
        for quotes in ["\"\"\"", "'''"] where value.hasPrefix(quotes) && !value.dropFirst(3).contains(quotes) {
            section.report(key, "write it on one line, between quotes (\"…\")")
            return true
        }
        if value.hasPrefix("["), !value.contains("]") {
            section.report(key, "write the list on one line: `\(key) = [\"…\", \"…\"]`")
            return true
        }
        lines[dotted] = number
        return true
    }

    /// What follows `key =` on `line`; nil when the line does not set `key`.
    private static func value(of key: String, onLine line: Substring) -> Substring? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        for name in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(name) {
            rest = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "=" else { return nil }
            return rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        }
        return nil
    }
}
