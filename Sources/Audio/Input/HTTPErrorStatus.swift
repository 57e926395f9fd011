/// An HTTP error a station answered with (4xx or 5xx), in words, and whether the answer is definitive:
/// the same on a retry a second later, so a station that never played need not be asked for 15 s.
///
/// Definitive: the client errors (the request is always the same, so is the answer: 404 Not Found, 410
/// Gone, 400, 405, 414, 451, and 401/407, which want credentials the radio never has), except those that
/// say "not now": 403 (Icecast's answer when a mount has its maximum of listeners), 408, 409, 423, 425
/// and 429. Server errors (5xx) are never definitive: a server being restarted or overloaded answers so.
/// Pure value; any thread.
struct HTTPErrorStatus: Equatable, Sendable, CustomStringConvertible {
    let code: Int

    /// Nil for a code that is no error status (outside 400...599).
    init?(_ code: Int) {
        guard (400...599).contains(code) else { return nil }
        self.code = code
    }

    var isDefinitive: Bool {
        (400...499).contains(code) && ![403, 408, 409, 423, 425, 429].contains(code)
    }

    /// "HTTP 404 Not Found": the standard reason phrase (RFC 9110), never the server's own text.
    var description: String {
        Self.reasonPhrases[code].map { "HTTP \(code) \($0)" } ?? "HTTP \(code)"
    }

    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 507: "Insufficient Storage",
        508: "Loop Detected", 511: "Network Authentication Required",
    ]
}
