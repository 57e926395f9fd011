import CCurl

/// URLs parsed and resolved by libcurl's URL API (`curl_url`): a playlist's relative entry is
/// resolved by the same parser that will then request it.
public enum CurlURL {
    /// The lowercased scheme of `url` when it is absolute (`http`, `mailto`, …); nil for a relative reference.
    public static func scheme(of url: String) -> String? {
        withHandle { handle in
            guard set(handle, url) else { return nil }
            return get(handle, CURLUPART_SCHEME)?.lowercased()
        }
    }

    /// The host of the absolute `url` (an IPv6 address in brackets); nil when libcurl cannot parse it.
    public static func host(of url: String) -> String? {
        withHandle { handle in
            guard set(handle, url) else { return nil }
            return get(handle, CURLUPART_HOST)
        }
    }

    /// `reference` resolved against `base` (RFC 3986 section 5); nil when libcurl cannot parse either.
    public static func resolve(_ reference: String, against base: String) -> String? {
        withHandle { handle in
            guard set(handle, base), set(handle, reference) else { return nil }
            return get(handle, CURLUPART_URL)
        }
    }

    private static func withHandle<Result>(_ body: (OpaquePointer) -> Result?) -> Result? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        return body(handle)
    }

    /// Sets the handle's URL; a relative one is resolved against the URL it already holds.
    private static func set(_ handle: OpaquePointer, _ url: String) -> Bool {
        curl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK
    }

    private static func get(_ handle: OpaquePointer, _ part: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
