import CCurl
import CurlSupport
import Glibc

/// Why a station does not play, in words the LCD and the CLI can show.
///
/// ``code`` is what programs read (`--json`, the LCD's text); ``detail`` says what exactly happened
/// (`HTTP 404`, curl's message) for logs.
public struct PlaybackFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure; a struct with static members so new kinds can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case stationOffline, noNetwork, timedOut, formatNotSupported, streamEnded, outputFailed, addressNotAllowed
        }

        private let kind: Kind

        /// The server refused, answered with an HTTP error, or looped redirects.
        public static let stationOffline = Code(kind: .stationOffline)
        /// The name did not resolve or the network is unreachable.
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
    /// What exactly happened, for logs (e.g. "HTTP 404 from http://…").
    public var detail: String

    public init(_ code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }

    /// Maps a failed transfer to what a listener should be told.
    init(curlError error: CurlError, osErrno: Int32, responseCode: Int) {
        if error.isAddressRefused {
            self.init(.addressNotAllowed, detail: error.detail)
            return
        }
        switch error.code {
        case CURLE_HTTP_RETURNED_ERROR:
            self.init(.stationOffline, detail: "HTTP \(responseCode)")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self.init(.noNetwork, detail: error.detail)
        case CURLE_COULDNT_CONNECT:
            let unreachable = [ENETUNREACH, EHOSTUNREACH, ENETDOWN].contains(osErrno)
            self.init(unreachable ? .noNetwork : .stationOffline, detail: error.detail)
        case CURLE_OPERATION_TIMEDOUT:
            self.init(.timedOut, detail: error.detail)
        case CURLE_TOO_MANY_REDIRECTS, CURLE_UNSUPPORTED_PROTOCOL, CURLE_PEER_FAILED_VERIFICATION,
             CURLE_SSL_CONNECT_ERROR, CURLE_WEIRD_SERVER_REPLY, CURLE_GOT_NOTHING:
            self.init(.stationOffline, detail: error.detail)
        default:
            self.init(.streamEnded, detail: error.detail)
        }
    }
}
