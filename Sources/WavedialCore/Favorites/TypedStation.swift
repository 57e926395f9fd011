import Foundation

/// A station the user gives by its stream URL (`wavedial tune URL`) that the catalog does not have:
/// the URL is checked, and the station made of it has the id an imported playlist entry with the same
/// URL gets (``FavoritesFile/syntheticUUID(for:)``), a name read from the URL (host, port and path; never
/// the user name or password it may hold) and no codec (the player finds out). Pure functions: any thread.
public enum TypedStation {
    /// The longest URL taken, in bytes: Radio Browser's limit for a station's URL.
    public static let maximumURLLength = 8192

    /// Why a typed URL is no stream the radio can tune.
    public enum URLError: Error, Equatable, CustomStringConvertible {
        case tooLong
        /// Spaces, control or non-ASCII characters: a URL spells them percent-encoded.
        case notPlainASCII
        case malformed
        case unsupportedScheme(String)
        case noHost

        public var description: String {
            switch self {
            case .tooLong: return "the URL is longer than \(TypedStation.maximumURLLength) bytes"
            case .notPlainASCII: return "the URL holds spaces, control or non-ASCII characters (percent-encode them)"
            case .malformed: return "not a URL"
            case .unsupportedScheme(let scheme): return "only http and https streams can be tuned, not \(scheme)"
            case .noHost: return "the URL names no host"
            }
        }
    }

    /// Whether `text` is meant as a URL rather than a frequency or a station's name: a scheme and `://`
    /// (`ftp://…` too, to be refused by ``station(url:)`` with the reason), or `http:`/`https:` however
    /// it goes on.
    public static func isURL(_ text: String) -> Bool {
        let lowercased = text.prefix(6).lowercased()
        return FavoritesFile.isURL(text) || lowercased.hasPrefix("http:") || lowercased.hasPrefix("https:")
    }

    /// The station for a stream URL the user typed.
    /// - Throws: ``URLError`` for anything but an http or https URL with a host, of at most
    ///   ``maximumURLLength`` bytes of printable ASCII.
    public static func station(url: String) throws -> Station {
        guard url.utf8.count <= maximumURLLength else { throw URLError.tooLong }
        guard url.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw URLError.notPlainASCII }
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased() else { throw URLError.malformed }
        guard scheme == "http" || scheme == "https" else { throw URLError.unsupportedScheme(scheme) }
        guard let host = parts.host, !host.isEmpty else { throw URLError.noHost }
        var name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = parts.port { name += ":\(port)" }
        if parts.path != "/" { name += parts.path }
        var station = Station(stationuuid: FavoritesFile.syntheticUUID(for: url), name: name, url: url)
        station.codec = ""
        return station.printable()
    }
}
