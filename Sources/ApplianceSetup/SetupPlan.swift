import Foundation
import WavedialCore

/// Every write one apply makes, worked out before the first is made: the files (paths relative to the root),
/// the location for the database, and the names of what is applied. Making the plan reads but writes nothing.
public struct SetupPlan: Sendable, Equatable {
    /// One file to replace.
    public struct FileWrite: Sendable, Equatable {
        /// Relative to the root, e.g. `data/wavedial-setup/hostname`.
        public let path: String
        public let content: Content
        public let mode: mode_t
        /// Whether the file takes its folder's group (the daemon's settings, which user wavedial reads).
        public let folderGroup: Bool

        /// The bytes of a file, or where a symbolic link points.
        public enum Content: Sendable, Equatable {
            case bytes([UInt8])
            case symlink(target: String)
        }
    }

    /// Where things go, relative to the root.
    public enum Path {
        public static let wifi = "data/wavedial-setup/wpa_supplicant-wlan0.conf"
        /// The same network's name and country without its key, readable by all: what the web page's
        /// settings screen (the daemon, not root) shows.
        public static let wifiNetwork = "data/wavedial-setup/wifi-network"
        public static let hostname = "data/wavedial-setup/hostname"
        public static let timezone = "data/wavedial-setup/timezone"
        public static let localtime = "data/wavedial-setup/localtime"
        public static let authorizedKeys = "data/ssh/authorized_keys/root"
        public static let daemonSettings = "data/wavedial/config.toml"
        /// The problem line the daemon shows on the LCD.
        public static let problem = "run/wavedial-setup/problem"
        /// The zone files the radio's `localtime` link points into (the running system's, not the root's).
        public static let zoneinfoOnRadio = "/usr/share/zoneinfo"
    }

    public var files: [FileWrite] = []
    /// For the database (``WavedialDatabase/setLocation(_:)``).
    public var location: Coordinate?
    /// What is applied, in order: `wifi`, `hostname`, `timezone`, `ssh_authorized_key`, `location`,
    /// `web_password`, `audio_device`, `catalog_servers`.
    public var applied: [String] = []

    /// What is on the radio now, as far as applying needs it.
    public struct Current: Sendable {
        /// The Wi-Fi configuration applied before.
        public var wifi: WPASupplicantConfig?
        /// `authorized_keys/root`'s text.
        public var authorizedKeys: String?
        /// `config.toml`'s text.
        public var daemonSettings: String?

        public init(wifi: WPASupplicantConfig? = nil, authorizedKeys: String? = nil, daemonSettings: String? = nil) {
            self.wifi = wifi
            self.authorizedKeys = authorizedKeys
            self.daemonSettings = daemonSettings
        }
    }

    /// The plan for `settings` on a radio that holds `current`.
    /// - Parameters:
    ///   - zoneTable: gives a time zone given alone its coarse location.
    ///   - hasLocation: whether a location is set already (database or config); asked only when a time zone
    ///     comes without one, and then the time zone's position is not used.
    /// - Throws: ``SetupProblems`` when the daemon's settings file there is cannot be merged into; what
    ///   `hasLocation` throws.
    public init(settings: SetupSettings, current: Current, zoneTable: ZoneTable?, hasLocation: () throws -> Bool) throws {
        if settings.wifiSSID != nil || settings.wifiCountry != nil {
            var wifi = current.wifi ?? WPASupplicantConfig()
            if let ssid = settings.wifiSSID, let key = settings.wifiKey {
                wifi.ssid = ssid
                switch key {
                case .passphrase(let passphrase): wifi.psk = WPAPreSharedKey.derive(passphrase: passphrase, ssid: ssid)
                case .psk(let psk), .keptPSK(let psk): wifi.psk = psk
                }
            }
            if let country = settings.wifiCountry { wifi.country = country }
            add(Path.wifi, text: wifi.text, mode: 0o600, as: "wifi")
            files.append(FileWrite(path: Path.wifiNetwork, content: .bytes(Array(wifi.summaryText.utf8)), mode: 0o644,
                                   folderGroup: false))
        }
        if let hostname = settings.hostname {
            add(Path.hostname, text: hostname + "\n", mode: 0o644, as: "hostname")
        }
        if let timezone = settings.timezone {
            add(Path.timezone, text: timezone + "\n", mode: 0o644, as: "timezone")
            files.append(FileWrite(path: Path.localtime, content: .symlink(target: "\(Path.zoneinfoOnRadio)/\(timezone)"),
                                   mode: 0o777, folderGroup: false))
        }
        if let key = settings.sshAuthorizedKey {
            let lines = (current.authorizedKeys ?? "").split(whereSeparator: \.isNewline)
            if !lines.contains(where: key.isSameKey(asLine:)) {
                add(Path.authorizedKeys, text: (lines.map(String.init) + [key.line]).joined(separator: "\n") + "\n", mode: 0o600,
                    as: "ssh_authorized_key")
            } else {
                applied.append("ssh_authorized_key")
            }
        }
        if let coordinate = settings.location {
            location = coordinate
            applied.append("location")
        } else if let timezone = settings.timezone, let zone = zoneTable?.zone(named: timezone), try !hasLocation() {
            location = zone.coordinate
            applied.append("location")
        }
        if settings.webPassword != nil || settings.audioDevice != nil || settings.catalogServers != nil {
            let text: String
            do {
                text = try DaemonSettingsFile.merged(previous: current.daemonSettings, webPassword: settings.webPassword,
                                                     audioDevice: settings.audioDevice, catalogServers: settings.catalogServers)
            } catch {
                let keys = (settings.webPassword != nil ? ["web.password"] : []) + (settings.audioDevice != nil ? ["audio.device"] : [])
                    + (settings.catalogServers != nil ? ["catalog.servers"] : [])
                throw SetupProblems(keys.map { key in
                    SetupProblem(key: key, line: settings.lines[key],
                                 message: "cannot be applied: the radio's \(Path.daemonSettings) is damaged (\(error)); remove it")
                })
            }
            files.append(FileWrite(path: Path.daemonSettings, content: .bytes(Array(text.utf8)), mode: 0o640, folderGroup: true))
            if settings.webPassword != nil { applied.append("web_password") }
            if settings.audioDevice != nil { applied.append("audio_device") }
            if settings.catalogServers != nil { applied.append("catalog_servers") }
        }
    }

    private mutating func add(_ path: String, text: String, mode: mode_t, as name: String) {
        files.append(FileWrite(path: path, content: .bytes(Array(text.utf8)), mode: mode, folderGroup: false))
        applied.append(name)
    }
}
