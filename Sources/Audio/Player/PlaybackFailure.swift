import CurlSupport
import Glibc
import PrintableText

/// Why a station does not play, in words the LCD and the CLI can show.
///
/// ``code`` is what programs read (`--json`, the LCD's text); ``detail`` says what exactly happened
/// (`HTTP 404 Not Found`, curl's message) for logs and `error_detail`; ``isDefinitive`` whether a retry
/// could answer otherwise.
public struct PlaybackFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure; a struct with static members so new kinds can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case stationOffline, noNetwork, timedOut, formatNotSupported, streamEnded, outputFailed, addressNotAllowed
        }

        private let kind: Kind

        /// The server refused, answered with an HTTP error, or looped redirects; or its name does not exist.
        public static let stationOffline = Code(kind: .stationOffline)
        /// The name did not resolve for want of a resolver (not because it does not exist), or the network is unreachable.
        public static let noNetwork = Code(kind: .noNetwork)
        /// No connection, or no audio, within the time allowed; or the stream stalled.
        public static let timedOut = Code(kind: .timedOut)
        /// WMA, MP4, video-only HLS, an HTML page, or bytes that never decoded as audio.
        public static let formatNotSupported = Code(kind: .formatNotSupported)
        /// The server ended the stream.
        public static let streamEnded = Code(kind: .streamEnded)
        /// The ALSA device could not be opened or written (a lost device is re-opened by itself), or the decoder did not start.
        public static let outputFailed = Code(kind: .outputFailed)
        /// The stream, a redirect or a playlist entry leads to an address the station may not reach
        /// (``AddressPolicy``: a catalog station into the home network, anything to link-local or multicast).
        public static let addressNotAllowed = Code(kind: .addressNotAllowed)

        /// A stable identifier for scripts (`station_offline`, ...).
        public var identifier: String {
            kind.rawValue.reduce(into: "") { result, character in
                if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
            }
        }

        /// Plain words for the LCD and the CLI.
        public var description: String {
            switch kind {
            case .stationOffline: return "Station offline"
            case .noNetwork: return "No network"
            case .timedOut: return "Timed out"
            case .formatNotSupported: return "Format not supported"
            case .streamEnded: return "Stream ended"
            case .outputFailed: return "Audio output failed"
            case .addressNotAllowed: return "Address not allowed"
            }
        }
    }

    public var code: Code
    /// What exactly happened, for logs (e.g. "HTTP 404 Not Found", "no such host: x.invalid").
    public var detail: String
    /// Whether this is the station's own answer and would be the same on a retry a second later
    /// (HTTP 404 or 410, too many redirects, a name that does not exist, a playlist of such entries): a
    /// station that never played then fails after a second attempt instead of at the start timeout. A
    /// station that played keeps retrying whatever the failure.
    public var isDefinitive: Bool
    /// The HTTP error status the server answered with, when that is what failed.
    public var httpStatus: Int?

    public init(_ code: Code, detail: String, isDefinitive: Bool = false, httpStatus: Int? = nil) {
        self.code = code
        self.detail = detail
        self.isDefinitive = isDefinitive
        self.httpStatus = httpStatus
    }

    public var description: String { "\(code): \(detail)" }

    /// Maps a failed transfer to what a listener should be told, and whether it is definitive.
    ///
    /// - Parameters:
    ///   - host: the host whose name did not resolve (``CurlError/Kind/hostNotResolved``), and what the DNS says
    ///     of it (``HostNameExistence/lookUp(_:)``); nil: unknown, so the network is blamed.
    init(curlError error: CurlError, osErrno: Int32, responseCode: Int,
         host: (name: String, existence: HostNameExistence)? = nil) {
        if error.isAddressRefused {
            self.init(.addressNotAllowed, detail: error.detail)
            return
        }
        switch error.kind {
        case .httpError:
            guard let status = HTTPErrorStatus(responseCode) else {
                self.init(.stationOffline, detail: "HTTP error")
                return
            }
            self.init(.stationOffline, detail: status.description, isDefinitive: status.isDefinitive, httpStatus: status.code)
        case .hostNotResolved:
            if let host, host.existence == .nonexistent {
                self.init(.stationOffline, detail: "no such host: \(Self.printableHost(host.name))", isDefinitive: true)
            } else {
                self.init(.noNetwork, detail: error.detail)
            }
        case .proxyNotResolved:
            self.init(.noNetwork, detail: error.detail)
        case .connectFailed:
            // A refused connection is not definitive: a server being restarted refuses for a second or two.
            let unreachable = [ENETUNREACH, EHOSTUNREACH, ENETDOWN].contains(osErrno)
            self.init(unreachable ? .noNetwork : .stationOffline, detail: error.detail)
        case .timedOut:
            self.init(.timedOut, detail: error.detail)
        case .tooManyRedirects:
            self.init(.stationOffline, detail: "too many redirects", isDefinitive: true)
        case .unsupportedProtocol, .malformedURL:
            // The URL (or a redirect's) is one no retry will fetch.
            self.init(.stationOffline, detail: error.detail, isDefinitive: true)
        case .tlsFailed, .badServerReply:
            // Not definitive: a Pi without a clock fails TLS verification until its time is set.
            self.init(.stationOffline, detail: error.detail)
        case .aborted, .other:
            self.init(.streamEnded, detail: error.detail)
        }
    }

    /// A host name from a station's URL, for a detail: without controls (``StationText``), at most a DNS
    /// name's 253 characters.
    private static func printableHost(_ name: String) -> String {
        StationText.printable(String(String.UnicodeScalarView(name.unicodeScalars.prefix(253))))
    }
}
