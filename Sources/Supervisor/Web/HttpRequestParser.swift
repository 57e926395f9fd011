/// Reads HTTP/1.x requests from the bytes a client sends, one after another on a connection
/// (keep-alive, pipelining). Pure and bounded: the request line, the head and the body each have a
/// limit, and anything malformed is an error with the status to answer. Hostile input; never traps.
///
/// Refused: a request line over ``Limits/requestLine`` (414), a head over ``Limits/head`` or with more
/// than ``Limits/headerCount`` fields (431), a body over ``Limits/body`` (413), `Transfer-Encoding`
/// (501: bodies come with a `Content-Length`), folded or malformed fields, control characters, a target
/// that is not a path (400), a version other than HTTP/1.0 and 1.1 (505).
public struct HttpRequestParser {
    /// The bounds of one request, in bytes.
    public struct Limits: Sendable, Equatable {
        public var requestLine = 2048
        public var head = 8192
        public var headerCount = 50
        public var body = 16 * 1024

        public init() {}
    }

    /// A request that cannot be read: the status to answer with, and why in words. The connection closes after it.
    public struct Failure: Error, Equatable, Sendable {
        public var status: Int
        public var message: String
    }

    public let limits: Limits
    private var buffer: [UInt8] = []

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether part of a request has arrived and not yet made a whole one.
    public var hasPartialRequest: Bool { !buffer.isEmpty }

    /// Adds bytes a client sent.
    public mutating func feed(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole request, nil until one has arrived, or the failure that ends the connection.
    /// Once it fails, the connection must close: what follows cannot be framed.
    public mutating func next() -> Result<HttpRequest, Failure>? {
        // Blank lines before a request are ignored (RFC 9112, 2.2).
        while true {
            if buffer.starts(with: [0x0D, 0x0A]) {
                buffer.removeFirst(2)
            } else if buffer.first == 0x0A {
                buffer.removeFirst()
            } else {
                break
            }
        }
        guard let headEnd = Self.endOfHead(buffer, within: limits.head) else {
            if let lineEnd = buffer.firstIndex(of: 0x0A), lineEnd > limits.requestLine {
                return .failure(Failure(status: 414, message: "request line longer than \(limits.requestLine) bytes"))
            }
            if buffer.firstIndex(of: 0x0A) == nil && buffer.count > limits.requestLine {
                return .failure(Failure(status: 414, message: "request line longer than \(limits.requestLine) bytes"))
            }
            if buffer.count > limits.head {
                return .failure(Failure(status: 431, message: "request head longer than \(limits.head) bytes"))
            }
            return nil
        }
        switch parseHead(Array(buffer[..<headEnd.start])) {
        case .failure(let failure):
            return .failure(failure)
        case .success(var request):
            let length: Int
            switch bodyLength(request) {
            case .failure(let failure): return .failure(failure)
            case .success(let value): length = value
            }
            guard buffer.count - headEnd.next >= length else { return nil }
            request.body = Array(buffer[headEnd.next..<(headEnd.next + length)])
            buffer.removeFirst(headEnd.next + length)
            return .success(request)
        }
    }

    /// Where the head ends (the empty line) and where what follows it starts; nil when it has not come
    /// within `limit` bytes.
    private static func endOfHead(_ bytes: [UInt8], within limit: Int) -> (start: Int, next: Int)? {
        var index = 0
        let end = min(bytes.count, limit + 4)
        while index < end {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < bytes.count && bytes[index + 1] == 0x0D && bytes[index + 2] == 0x0A { return (index, index + 3) }
            }
            index += 1
        }
        return nil
    }

    private func parseHead(_ head: [UInt8]) -> Result<HttpRequest, Failure> {
        // Lines end in CRLF or a bare LF; a CR anywhere else is refused (request smuggling).
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 0x0D ? line.dropLast() : line
        }
        guard !lines.isEmpty else { return .failure(Self.bad("empty request")) }
        let requestLine = lines.removeFirst()
        guard requestLine.count <= limits.requestLine else {
            return .failure(Failure(status: 414, message: "request line longer than \(limits.requestLine) bytes"))
        }
        guard lines.count <= limits.headerCount else {
            return .failure(Failure(status: 431, message: "more than \(limits.headerCount) header fields"))
        }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(Self.bad("request line must be METHOD TARGET VERSION")) }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard !method.isEmpty, method.utf8.count <= 16, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            return .failure(Self.bad("method must be upper-case letters"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { return .failure(Self.bad("not an HTTP request")) }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(Failure(status: 505, message: "only HTTP/1.0 and HTTP/1.1 are served"))
        }
        let target = parts[1]
        // Origin form only: a path, then an optional query; no fragment, no controls, no spaces.
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }) else {
            return .failure(Self.bad("target must be a path of printable ASCII"))
        }
        let pathEnd = target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex
        let path = String(decoding: target[..<pathEnd], as: UTF8.self)
        var query: [(name: String, value: String)] = []
        if pathEnd < target.endIndex {
            guard let decoded = Self.decodeQuery(target[(pathEnd + 1)...]) else {
                return .failure(Self.bad("query has a malformed percent escape or is not UTF-8"))
            }
            query = decoded
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .failure(Self.bad("header field without a colon")) }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                return .failure(Self.bad("malformed header field name (or a folded line)"))
            }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return .failure(Self.bad("control character in a header field"))
            }
            let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            headers.append((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: trimmed, as: UTF8.self)))
        }
        if version == "HTTP/1.1" && !headers.contains(where: { $0.name == "host" }) {
            return .failure(Self.bad("HTTP/1.1 request without Host"))
        }
        guard headers.filter({ $0.name == "host" }).count <= 1 else { return .failure(Self.bad("more than one Host")) }
        return .success(HttpRequest(method: method, path: path, query: query, version: version, headers: headers))
    }

    private func bodyLength(_ request: HttpRequest) -> Result<Int, Failure> {
        if request.headers.contains(where: { $0.name == "transfer-encoding" }) {
            return .failure(Failure(status: 501, message: "Transfer-Encoding is not accepted: send a Content-Length"))
        }
        let values = request.headers.filter { $0.name == "content-length" }.map(\.value)
        guard let first = values.first else { return .success(0) }
        guard values.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 10,
              first.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(first) else {
            return .failure(Self.bad("malformed Content-Length"))
        }
        guard length <= limits.body else {
            return .failure(Failure(status: 413, message: "body longer than \(limits.body) bytes"))
        }
        return .success(length)
    }

    /// `a=1&b=x%20y+z` as pairs; nil for a bad escape or text that is not UTF-8.
    private static func decodeQuery(_ bytes: ArraySlice<UInt8>) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&")).prefix(50) {
            let equals = part.firstIndex(of: UInt8(ascii: "=")) ?? part.endIndex
            guard let name = percentDecoded(part[..<equals]),
                  let value = percentDecoded(equals < part.endIndex ? part[(equals + 1)...] : []) else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func bad(_ message: String) -> Failure { Failure(status: 400, message: message) }
}
