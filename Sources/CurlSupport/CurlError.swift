import CCurl

/// A libcurl failure: the raw `CURLcode`, the function that returned it, and
/// curl's own words (`CURLOPT_ERRORBUFFER` when set, else `curl_easy_strerror`), or, when an
/// ``AddressPolicy`` refused the connection, the refusal's.
public struct CurlError: Error, CustomStringConvertible, Sendable {
    public let code: CURLcode
    public let function: String
    public let detail: String
    /// Why the connection was refused before it was made, when an ``AddressPolicy`` refused it.
    public let refusal: AddressRefusal?

    public init(code: CURLcode, function: String, detail: String? = nil, refusal: AddressRefusal? = nil) {
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

    /// The name could not be resolved: the network or DNS is down.
    public var isResolveFailure: Bool {
        code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_RESOLVE_PROXY
    }

    /// The address policy refused every address the name resolved to (``refusal`` says which and why).
    public var isAddressRefused: Bool { refusal != nil }

    /// No TCP connection could be made (refused, unreachable, or not allowed by the address policy).
    public var isConnectFailure: Bool { code == CURLE_COULDNT_CONNECT }

    /// The connect timeout or the low-speed (stall) limit fired.
    public var isTimeout: Bool { code == CURLE_OPERATION_TIMEDOUT }

    /// The transfer was stopped on purpose by a callback (``CurlEasy/cancel()``).
    public var isAborted: Bool { code == CURLE_ABORTED_BY_CALLBACK || code == CURLE_WRITE_ERROR }
}
