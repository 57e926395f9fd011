import WavedialCore

/// One thing wrong with `wavedial-setup.toml`, by key and line: what the command prints, its `--json` holds and
/// the radio's display shows, shortened.
public struct SetupProblem: Sendable, Equatable, Codable {
    /// The dotted key (`wifi.password`); empty for a problem with the file as a whole (its TOML syntax).
    public let key: String
    /// 1-based, when known.
    public let line: Int?
    public let message: String

    public init(key: String, line: Int?, message: String) {
        self.key = key
        self.line = line
        self.message = message
    }

    /// `line` is `null` when unknown rather than left out: every problem has the same fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(line, forKey: .line)
        try container.encode(message, forKey: .message)
    }

    init(_ problem: ConfigurationError.Problem) {
        self.init(key: problem.key, line: problem.line, message: problem.message)
    }

    /// `wavedial-setup.toml line 12: [wifi] password: must be …`, with `file` as the file's name.
    public func report(file: String) -> String {
        let place = line.map { "\(file) line \($0)" } ?? file
        guard !key.isEmpty else { return "\(place): \(message)" }
        let parts = key.split(separator: ".")
        let named = parts.count < 2 ? key : "[\(parts.dropLast().joined(separator: "."))] \(parts.last ?? "")"
        return "\(place): \(named): \(message)"
    }

    /// At most ``displayWidth`` plain ASCII characters for the LCD: `Setup file line 12: bad Wi-Fi password`.
    public var displayLine: String {
        let text = (line.map { "Setup file line \($0): " } ?? "Setup file: ") + shortWhat
        return String(text.prefix(Self.displayWidth))
    }

    /// The longest ``displayLine``: two rows of a 20-column LCD.
    public static let displayWidth = 40

    /// What is wrong, in a few words.
    private var shortWhat: String {
        switch key {
        case "": return "not valid TOML"
        case "wifi.ssid": return "bad Wi-Fi name"
        case "wifi.password": return "bad Wi-Fi password"
        case "wifi.country": return "bad country"
        case "system.hostname": return "bad hostname"
        case "system.timezone": return "bad time zone"
        case "system.ssh_authorized_key": return "bad SSH key"
        case "location.place": return "unknown place"
        case "location.latitude", "location.longitude": return "bad location"
        case "web.password": return "bad web password"
        case "audio.device": return "bad audio device"
        default: return "unknown setting"
        }
    }
}
