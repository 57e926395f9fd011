import CCurl

/// A libcurl failure: what kind (``Kind``, from the `CURLcode`), the function that returned it, and
/// curl's own words (`CURLOPT_ERRORBUFFER` when set, else `curl_easy_strerror`), or, when an
/// ``AddressPolicy`` refused the connection, the refusal's.
public struct CurlError: Error, CustomStringConvertible, Sendable {
    /// The failures the radio tells apart.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// A response status of 400 or more (``CurlOption/failOnHTTPError``): the handle's `responseCode` says which.
        case httpError
        case hostNotResolved
        case proxyNotResolved
        /// No TCP connection (refused, unreachable, or no address the policy allows).
        case connectFailed
        /// The connect timeout, the transfer's timeout or the minimum speed fired.
        case timedOut
        case tooManyRedirects
        /// A protocol the transfer may not use (``CurlOption/protocols(_:redirects:)``), or none libcurl has.
        case unsupportedProtocol
        case malformedURL
        /// The TLS handshake failed or the certificate was not trusted.
        case tlsFailed
        /// The server answered with something other than HTTP, or nothing.
        case badServerReply
        /// Stopped on purpose (``CurlEasy/cancel()``, or a callback that refused the data).
        case aborted
        /// Anything else (a receive error, a transfer cut short, …).
        case other
    }

    let code: CURLcode
    public let function: String
    public let detail: String
    /// Why the connection was refused before it was made, when an ``AddressPolicy`` refused it.
    public let refusal: AddressRefusal?

    /// A failure of `kind` (a representative code of it: tests, and callers that fail on their own).
    public init(kind: Kind, function: String, detail: String? = nil) {
        self.init(code: Self.representative[kind] ?? CURLE_RECV_ERROR, function: function, detail: detail)
    }

    init(code: CURLcode, function: String, detail: String? = nil, refusal: AddressRefusal? = nil) {
        self.code = code
        self.function = function
        self.refusal = refusal
        if let refusal {
            self.detail = refusal.description
        } else if let detail, !detail.isEmpty {
            self.detail = detail
        } else {
            self.detail = String(cString: curl_easy_strerror(code))
        }
    }

    public var description: String { detail }

    public var kind: Kind {
        switch code {
        case CURLE_HTTP_RETURNED_ERROR: return .httpError
        case CURLE_COULDNT_RESOLVE_HOST: return .hostNotResolved
        case CURLE_COULDNT_RESOLVE_PROXY: return .proxyNotResolved
        case CURLE_COULDNT_CONNECT: return .connectFailed
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedProtocol
        case CURLE_URL_MALFORMAT: return .malformedURL
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR: return .tlsFailed
        case CURLE_WEIRD_SERVER_REPLY, CURLE_GOT_NOTHING: return .badServerReply
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: return .aborted
        default: return .other
        }
    }

    private static let representative: [Kind: CURLcode] = [
        .httpError: CURLE_HTTP_RETURNED_ERROR, .hostNotResolved: CURLE_COULDNT_RESOLVE_HOST,
        .proxyNotResolved: CURLE_COULDNT_RESOLVE_PROXY, .connectFailed: CURLE_COULDNT_CONNECT,
        .timedOut: CURLE_OPERATION_TIMEDOUT, .tooManyRedirects: CURLE_TOO_MANY_REDIRECTS,
        .unsupportedProtocol: CURLE_UNSUPPORTED_PROTOCOL, .malformedURL: CURLE_URL_MALFORMAT,
        .tlsFailed: CURLE_PEER_FAILED_VERIFICATION, .badServerReply: CURLE_WEIRD_SERVER_REPLY,
        .aborted: CURLE_ABORTED_BY_CALLBACK, .other: CURLE_RECV_ERROR,
    ]

    /// The name could not be resolved: the network or DNS is down.
    public var isResolveFailure: Bool { kind == .hostNotResolved || kind == .proxyNotResolved }

    /// The address policy refused every address the name resolved to (``refusal`` says which and why).
    public var isAddressRefused: Bool { refusal != nil }

    /// No TCP connection could be made (refused, unreachable, or not allowed by the address policy).
    public var isConnectFailure: Bool { kind == .connectFailed }

    /// The connect timeout or the low-speed (stall) limit fired.
    public var isTimeout: Bool { kind == .timedOut }

    /// The transfer was stopped on purpose by a callback (``CurlEasy/cancel()``).
    public var isAborted: Bool { kind == .aborted }
}
