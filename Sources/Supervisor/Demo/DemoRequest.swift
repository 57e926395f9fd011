import Foundation

/// An HTTP request to the demo band's loopback server, parsed from its head (request line and header
/// fields, up to the blank line).
///
/// Any local program can connect, so the head is hostile input: it is bounded (``maximumHeadLength``
/// bytes, ``maximumFields`` fields), must be printable ASCII apart from its line ends, and anything else is
/// refused with the status to answer. Pure; any thread.
public struct DemoRequest: Sendable, Equatable {
    /// Why a head is refused, as the HTTP status to answer with.
    public enum Refusal: Error, Sendable, Equatable {
        /// 400: not a request line and fields.
        case badRequest
        /// 405: a method other than GET.
        case methodNotAllowed
        /// 431: the head is too long or has too many fields.
        case headTooLarge

        /// The status line's code and reason.
        public var status: (code: Int, reason: String) {
            switch self {
            case .badRequest: return (400, "Bad Request")
            case .methodNotAllowed: return (405, "Method Not Allowed")
            case .headTooLarge: return (431, "Request Header Fields Too Large")
            }
        }
    }

    /// The longest head read; a player's is a few hundred bytes.
    public static let maximumHeadLength = 4096
    /// The most header fields read.
    public static let maximumFields = 64

    /// The request target's path (from `/`, without a query).
    public let path: String
    /// Whether the client asked for ICY metadata (`Icy-MetaData: 1`).
    public let wantsMetadata: Bool

    /// The length of the head in `bytes` including its blank line, nil while it has not ended.
    public static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// Parses a whole head (ending with CR LF CR LF).
    public static func parse(_ head: [UInt8]) -> Result<DemoRequest, Refusal> {
        guard head.count <= maximumHeadLength else { return .failure(.headTooLarge) }
        guard let length = headLength(in: head), length == head.count else { return .failure(.badRequest) }
        // Printable ASCII and the line ends only: no NUL, no bytes a terminal or a log would act on.
        guard head.allSatisfy({ (32...126).contains($0) || $0 == 13 || $0 == 10 }) else { return .failure(.badRequest) }
        var lines = String(decoding: head.dropLast(4), as: UTF8.self).components(separatedBy: "\r\n")
        // A CR or LF that is not part of a line end would pass into the path or a field.
        guard !lines.contains(where: { $0.contains("\r") || $0.contains("\n") }) else { return .failure(.badRequest) }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.0" || requestLine[2] == "HTTP/1.1" else {
            return .failure(.badRequest)
        }
        guard requestLine[0] == "GET" else {
            return requestLine[0].allSatisfy({ $0.isASCII && $0.isUppercase }) && !requestLine[0].isEmpty
                ? .failure(.methodNotAllowed) : .failure(.badRequest)
        }
        let target = requestLine[1]
        guard target.hasPrefix("/") else { return .failure(.badRequest) }
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        guard lines.count <= maximumFields else { return .failure(.headTooLarge) }
        var wantsMetadata = false
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return .failure(.badRequest) }
            let name = line[..<colon]
            guard !name.contains(" ") else { return .failure(.badRequest) }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name.lowercased() == "icy-metadata" { wantsMetadata = value == "1" }
        }
        return .success(DemoRequest(path: path, wantsMetadata: wantsMetadata))
    }
}
