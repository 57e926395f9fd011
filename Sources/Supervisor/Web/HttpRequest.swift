import CurlSupport
import Foundation

/// One HTTP/1.x request as ``HttpRequestParser`` read it: hostile input, already bounded.
public struct HttpRequest: Sendable, Equatable {
    /// `GET`, `POST`, … (upper-case letters only).
    public var method: String
    /// The path of the target, still percent-encoded (`/api/status`).
    public var path: String
    /// The query's parameters, decoded (`+` is a space), in order; a name may repeat.
    public var query: [(name: String, value: String)]
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    /// The header fields in order, names lower-cased, values without surrounding spaces.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The client's address (the server sets it; the parser cannot know it): whose password guesses these are.
    public var peer: IPAddress?

    public init(method: String, path: String, query: [(name: String, value: String)] = [], version: String = "HTTP/1.1",
                headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first field named `name` (lower-case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The first query parameter named `name`.
    public func parameter(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    public static func == (left: HttpRequest, right: HttpRequest) -> Bool {
        left.method == right.method && left.path == right.path && left.version == right.version && left.body == right.body
            && left.query.elementsEqual(right.query, by: { $0 == $1 }) && left.headers.elementsEqual(right.headers, by: { $0 == $1 })
    }
}
