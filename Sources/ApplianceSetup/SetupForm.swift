import Foundation

/// The settings the web page's settings screen sends (`POST /api/settings`), in the setup file's sections and
/// keys: `{"wifi": {"ssid": "…", "password": "…", "country": "DE"}, "system": {"hostname": "…", "timezone": "…"},
/// "location": {"place": "Berlin"} or {"latitude": 52.5, "longitude": 13.4}, "web": {"password": "…"}}`.
///
/// The daemon is not root: it writes the form as the text of a `wavedial-setup.toml` (``text``) into the
/// settings inbox, which root's `wavedial setup apply --file` applies; the text is checked first by the same
/// rules (``checked(zoneInfo:appliedWifi:)``). The page sets no other key: an SSH key from the web page would
/// make the web password root's, and the sound card and catalog servers belong to SSH. Hostile input: every
/// value goes into the text escaped, on one line. Pure values: any thread.
public struct SetupForm: Sendable, Equatable, Decodable {
    public var wifiSSID: String?
    public var wifiPassword: String?
    public var wifiCountry: String?
    public var hostname: String?
    public var timezone: String?
    public var place: String?
    public var latitude: Double?
    public var longitude: Double?
    public var webPassword: String?
    /// The dotted keys the body gave that the page does not set, each refused.
    public var otherKeys: [String] = []

    /// The keys the page sets, by section, in the order the text writes them.
    public static let keys: KeyValuePairs<String, [String]> = [
        "wifi": ["ssid", "password", "country"], "system": ["hostname", "timezone"],
        "location": ["place", "latitude", "longitude"], "web": ["password"],
    ]

    public init() {}

    public init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        let known = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0.key, $0.value) })
        var other = root.allKeys.map(\.stringValue).filter { known[$0] == nil }
        func section(_ name: String) throws -> KeyedDecodingContainer<AnyKey>? {
            let key = AnyKey(name)
            guard root.contains(key), try !root.decodeNil(forKey: key) else { return nil }
            let section = try root.nestedContainer(keyedBy: AnyKey.self, forKey: key)
            other += section.allKeys.map(\.stringValue).filter { !(known[name] ?? []).contains($0) }.map { "\(name).\($0)" }
            return section
        }
        if let wifi = try section("wifi") {
            wifiSSID = try wifi.decodeIfPresent(String.self, forKey: AnyKey("ssid"))
            wifiPassword = try wifi.decodeIfPresent(String.self, forKey: AnyKey("password"))
            wifiCountry = try wifi.decodeIfPresent(String.self, forKey: AnyKey("country"))
        }
        if let system = try section("system") {
            hostname = try system.decodeIfPresent(String.self, forKey: AnyKey("hostname"))
            timezone = try system.decodeIfPresent(String.self, forKey: AnyKey("timezone"))
        }
        if let location = try section("location") {
            place = try location.decodeIfPresent(String.self, forKey: AnyKey("place"))
            latitude = try location.decodeIfPresent(Double.self, forKey: AnyKey("latitude"))
            longitude = try location.decodeIfPresent(Double.self, forKey: AnyKey("longitude"))
        }
        if let web = try section("web") {
            webPassword = try web.decodeIfPresent(String.self, forKey: AnyKey("password"))
        }
        otherKeys = other.sorted()
    }

    /// The form in a JSON body.
    /// - Throws: ``SetupProblems``, by key, when the body is not a JSON object of sections or a value has the
    ///   wrong type.
    public static func decode(_ body: [UInt8]) throws(SetupProblems) -> SetupForm {
        do {
            return try JSONDecoder().decode(SetupForm.self, from: Data(body))
        } catch let DecodingError.typeMismatch(type, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            let what = type == Double.self ? "a number" : type == String.self ? "a string" : "an object of settings"
            throw SetupProblems([SetupProblem(key: key, line: nil, message: "must be \(what)")])
        } catch {
            throw SetupProblems([SetupProblem(key: "", line: nil,
                                              message: "the body must be a JSON object such as {\"system\": {\"timezone\": \"Europe/Berlin\"}}")])
        }
    }

    /// The text of a `wavedial-setup.toml` that sets what the form gives, each value on a line of its own.
    public var text: String {
        var lines = ["# Written by the radio's web page for `wavedial setup apply`, which applies it as root."]
        func add(_ section: String, _ values: [(String, String?)]) {
            let given = values.compactMap { key, value in value.map { "\(key) = \($0)" } }
            guard !given.isEmpty else { return }
            lines += ["", "[\(section)]"] + given
        }
        add("wifi", [("ssid", wifiSSID.map(Self.basicString)), ("password", wifiPassword.map(Self.basicString)),
                     ("country", wifiCountry.map(Self.basicString))])
        add("system", [("hostname", hostname.map(Self.basicString)), ("timezone", timezone.map(Self.basicString))])
        add("location", [("place", place.map(Self.basicString)), ("latitude", latitude.map(Self.float)),
                         ("longitude", longitude.map(Self.float))])
        add("web", [("password", webPassword.map(Self.basicString))])
        return lines.joined(separator: "\n") + "\n"
    }

    /// The form's ``text``, checked as `wavedial setup apply` checks the file.
    /// - Parameters:
    ///   - zoneInfo: the tz folder the time zone, the country and a place are checked against.
    ///   - appliedWifi: the Wi-Fi configuration applied before (an SSID given again without a password keeps it).
    /// - Throws: ``SetupProblems``: a key the page does not set, a form that sets nothing, and what the setup
    ///   file's rules find.
    public func checked(zoneInfo: ZoneInfoDirectory, appliedWifi: WPASupplicantConfig?) throws(SetupProblems) -> String {
        guard otherKeys.isEmpty else {
            throw SetupProblems(otherKeys.map { SetupProblem(key: $0, line: nil, message: "is not a setting the web page changes") })
        }
        // The network applied before, given again without a password, is no change of network: its name is left
        // out, as the daemon cannot read its key (root's) to check that applying would keep it.
        var form = self
        if wifiPassword == nil, let ssid = wifiSSID, let applied = appliedWifi?.ssid, Array(ssid.utf8) == applied, appliedWifi?.psk == nil {
            form.wifiSSID = nil
        }
        let text = form.text
        guard try !SetupSettings.read(text, zoneInfo: zoneInfo, appliedWifi: appliedWifi).isEmpty else {
            throw SetupProblems([SetupProblem(key: "", line: nil, message: "sets nothing: give at least one setting")])
        }
        return text
    }

    /// `text` as a TOML basic string on one line: quotes and backslashes escaped, control characters as `\uXXXX`.
    static func basicString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A TOML float (JSON numbers are finite): `52.5`, `1e-05`.
    private static func float(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// Any key of a JSON object.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
