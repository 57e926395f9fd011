import Audio
import Display
import Foundation
import Hardware
import WavedialCore

/// The appliance's configuration, read from a TOML file (`/etc/wavedial/config.toml`):
/// one section per subsystem, each mapped onto that subsystem's own settings type.
///
/// Every key has a default, so an empty file is a valid configuration. Unknown keys,
/// wrong types and out-of-range values are errors that name the key and its line.
public struct Configuration: Sendable, Equatable {
    /// Where the configuration is read from when no path is given.
    public static let defaultPath = "/etc/wavedial/config.toml"

    public var location = LocationSettings()
    public var catalog = CatalogSettings()
    public var dial = DialSettings()
    public var display = DisplaySettings()
    public var audio = PlayerSettings()
    public var hardware = InputSettings()
    public var ir = IRSettings()
    public var daemon = DaemonSettings()
    public var clock = ClockSettings()
    /// `[mpd]`: the MPD protocol server (port 6600).
    public var mpd = ListenerSettings(port: 6600)
    /// `[web]`: the web page and its JSON API (port 8080).
    public var web = ListenerSettings(port: 8080)

    public init() {}

    /// Reads and checks the file at `path`.
    /// - Throws: ``ConfigurationError`` naming the file, each bad key and its line.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        try read(ConfigFile(path: path))
    }

    /// Parses configuration text; `source` names it in errors.
    public static func parse(_ text: String, source: String = "config") throws(ConfigurationError) -> Configuration {
        try read(ConfigFile(text: text, source: source))
    }

    private static func read(_ file: ConfigFile) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        configuration.location = LocationSettings(file.section("location"))
        configuration.catalog = CatalogSettings(file.section("catalog"))
        configuration.dial = DialSettings(file.section("dial"))
        configuration.display = DisplaySettings(file.section("display"))
        configuration.audio = PlayerSettings(file.section("audio"))
        configuration.hardware = InputSettings(file.section("hardware"))
        configuration.ir = IRSettings(file.section("ir"))
        configuration.daemon = DaemonSettings(daemon: file.section("daemon"), control: file.section("control"))
        configuration.clock = ClockSettings(sleep: file.section("sleep"), alarm: file.section("alarm"))
        configuration.mpd = ListenerSettings(file.section("mpd"), defaultPort: 6600)
        configuration.web = ListenerSettings(file.section("web"), defaultPort: 8080)
        try file.finish()
        return configuration
    }
}
