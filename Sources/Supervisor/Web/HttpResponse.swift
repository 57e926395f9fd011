import Foundation
import WavedialControl

/// An HTTP answer: status, header fields and a whole body (always sent with its `Content-Length`).
public struct HttpResponse: Sendable, Equatable {
    public var status: Int
    /// Fields besides `Content-Length`, `Connection` and the security fields every answer carries.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `value` as JSON, as the control socket and `wavedial … --json` write it (sorted keys).
    public static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> HttpResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data(#"{"ok":false,"error":"unencodable reply"}"#.utf8)
        return HttpResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    /// An error as JSON: `{"ok":false,"error":message}`, the control socket's shape.
    public static func failure(_ status: Int, _ message: String) -> HttpResponse {
        json(ControlResponse.failure(message), status: status)
    }

    /// The reason phrase of `status`.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 302: return "Found"
        case 303: return "See Other"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }

    /// The bytes on the wire; `includingBody` false for HEAD.
    public func serialized(keepAlive: Bool, includingBody: Bool = true) -> Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        var fields = headers
        fields["Content-Length"] = String(body.count)
        fields["Connection"] = keepAlive ? "keep-alive" : "close"
        fields["X-Content-Type-Options"] = "nosniff"
        fields["Referrer-Policy"] = "no-referrer"
        fields["X-Frame-Options"] = "DENY"
        if fields["Cache-Control"] == nil { fields["Cache-Control"] = "no-store" }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            // Values are ours, but one may carry text from a request (a cookie): never a line break.
            let clean = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
            head += "\(name): \(String(String.UnicodeScalarView(clean)))\r\n"
        }
        head += "\r\n"
        var data = Data(head.utf8)
        if includingBody { data.append(body) }
        return data
    }
}
