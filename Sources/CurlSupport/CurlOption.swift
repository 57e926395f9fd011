import CCurl

/// An option of a transfer, typed: what the radio's transfers set (``CurlEasy/set(_:)``), so that no
/// module but this one names libcurl's constants.
public enum CurlOption: Sendable {
    case url(String)
    case userAgent(String)
    /// `user:password` for HTTP basic authentication.
    case credentials(String)
    /// Follows `Location` redirects, at most `maximum` of them.
    case followRedirects(maximum: Int)
    /// The protocols the transfer, and each redirect of it, may use.
    case protocols([CurlProtocol], redirects: [CurlProtocol])
    /// Seconds to connect (resolving included); bounded to a millisecond … a day.
    case connectTimeout(seconds: Double)
    /// Seconds the whole transfer may take; bounded to a millisecond … a day.
    case timeout(seconds: Double)
    /// Aborts a transfer slower than `bytesPerSecond` for `seconds` (a stalled server).
    case minimumSpeed(bytesPerSecond: Int, seconds: Int)
    /// A response status of 400 or more fails the transfer (``CurlError/Kind/httpError``).
    case failOnHTTPError
    /// Asks for every content encoding libcurl decodes (gzip, deflate) and decodes it.
    case acceptAnyEncoding
    /// The bytes to fetch: `first-last`, inclusive.
    case byteRange(first: Int, last: Int)
    case tcpKeepAlive
    /// Verifies the server's certificate chain and that it names the host.
    case verifyTLSPeer

    /// The libcurl options and values it stands for, in the order they are set.
    var settings: [(CURLoption, Value)] {
        switch self {
        case .url(let url): return [(CURLOPT_URL, .text(url))]
        case .userAgent(let agent): return [(CURLOPT_USERAGENT, .text(agent))]
        case .credentials(let credentials): return [(CURLOPT_USERPWD, .text(credentials))]
        case .followRedirects(let maximum): return [(CURLOPT_FOLLOWLOCATION, .number(1)), (CURLOPT_MAXREDIRS, .number(maximum))]
        case .protocols(let protocols, let redirects):
            return [(CURLOPT_PROTOCOLS_STR, .text(CurlProtocol.list(protocols))),
                    (CURLOPT_REDIR_PROTOCOLS_STR, .text(CurlProtocol.list(redirects)))]
        case .connectTimeout(let seconds): return [(CURLOPT_CONNECTTIMEOUT_MS, .number(Self.milliseconds(seconds)))]
        case .timeout(let seconds): return [(CURLOPT_TIMEOUT_MS, .number(Self.milliseconds(seconds)))]
        case .minimumSpeed(let bytesPerSecond, let seconds):
            return [(CURLOPT_LOW_SPEED_LIMIT, .number(bytesPerSecond)), (CURLOPT_LOW_SPEED_TIME, .number(seconds))]
        case .failOnHTTPError: return [(CURLOPT_FAILONERROR, .number(1))]
        case .acceptAnyEncoding: return [(CURLOPT_ACCEPT_ENCODING, .text(""))]
        case .byteRange(let first, let last): return [(CURLOPT_RANGE, .text("\(first)-\(last)"))]
        case .tcpKeepAlive: return [(CURLOPT_TCP_KEEPALIVE, .number(1))]
        case .verifyTLSPeer: return [(CURLOPT_SSL_VERIFYPEER, .number(1)), (CURLOPT_SSL_VERIFYHOST, .number(2))]
        }
    }

    enum Value {
        case number(Int)
        case text(String)
    }

    /// Whole milliseconds, at least one (0 would mean "no limit" to libcurl) and at most a day; NaN is the least.
    static func milliseconds(_ seconds: Double) -> Int {
        let bounded = min(max(seconds.isNaN ? 0 : seconds, 0.001), 86_400)
        return Int((bounded * 1000).rounded())
    }
}

/// A protocol a transfer may use.
public enum CurlProtocol: String, Sendable {
    case http, https

    static func list(_ protocols: [CurlProtocol]) -> String {
        protocols.map(\.rawValue).joined(separator: ",")
    }
}
