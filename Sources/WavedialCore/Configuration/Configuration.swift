import Foundation

/// The appliance's configuration, read from a TOML file (`/etc/wavedial/config.toml`).
///
/// Every key has a default, so an empty file is a valid configuration. Unknown keys,
/// wrong types and out-of-range values are errors that name the key and its line.
public struct Configuration: Sendable, Equatable {
    /// Where the configuration is read from when no path is given.
    public static let defaultPath = "/etc/wavedial/config.toml"

    public var location = LocationSettings()
    public var catalog = CatalogSettings()
    public var dial = DialSettings()

    public init() {}

    /// Reads and checks the file at `path`.
    /// - Throws: ``ConfigurationError`` naming the file, each bad key and its line.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? ""
            let message = FileManager.default.fileExists(atPath: path)
                ? "cannot be read as UTF-8 text \(reason)" : "no such file"
            throw ConfigurationError(source: path, problems: [.init(key: "", line: nil, message: message)])
        }
        return try parse(text, source: path)
    }

    /// Parses configuration text; `source` names it in errors.
    public static func parse(_ text: String, source: String = "config") throws(ConfigurationError) -> Configuration {
        let document: ConfigDocument
        do {
            document = try ConfigDocument(text: text)
        } catch {
            throw ConfigurationError(source: source, problems: [error])
        }
        let root = ConfigSection(path: "", table: document.root, document: document)
        var configuration = Configuration()
        configuration.location = LocationSettings(root.section("location"))
        configuration.catalog = CatalogSettings(root.section("catalog"))
        configuration.dial = DialSettings(root.section("dial"))
        document.reportUnknownKeys()
        if !document.problems.isEmpty {
            throw ConfigurationError(source: source, problems: document.problems)
        }
        return configuration
    }
}
