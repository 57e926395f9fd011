import Foundation
import Threads

/// A tiny HTTP/1.0 server on a loopback address of the test's choosing (`127.0.0.1`, `127.0.0.2`, …):
/// each path gets the answer the test scripted (a redirect, a playlist, a 404), and every connection
/// accepted is counted, so a test can prove a peer was never reached. One connection at a time, on a
/// thread of its own; stopped by ``stop()``.
public final class ScriptedHTTPServer: @unchecked Sendable {
    /// One scripted answer.
    public struct Response: Sendable {
        public var status: String
        public var headers: [String]
        public var body: [UInt8]

        public init(status: String = "200 OK", headers: [String] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// `302 Found` to `location`.
        public static func redirect(to location: String) -> Response {
            Response(status: "302 Found", headers: ["Location: \(location)"])
        }

        /// A body of `contentType`.
        public static func content(_ text: String, type contentType: String) -> Response {
            Response(headers: ["Content-Type: \(contentType)"], body: Array(text.utf8))
        }

        public static let notFound = Response(status: "404 Not Found", headers: ["Content-Type: text/plain"], body: Array("no\n".utf8))
    }

    public let host: String
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: Response] = [:]
    private var accepted = 0
    private var paths: [String] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `host` (a local address) at a free port.
    public init(host: String = "127.0.0.1") throws {
        self.host = host
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw FixtureError("cannot listen on \(host): \(reason)")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    /// `http://host:port/path`.
    public func url(_ path: String) -> String { "http://\(host):\(port)\(path)" }

    /// Answers `path` (without the query) with `response` from now on; other paths get 404.
    public func route(_ path: String, _ response: Response) {
        lock.withLock { routes[path] = response }
    }

    /// Connections accepted so far.
    public var connections: Int { lock.withLock { accepted } }

    /// The paths requested so far, in order.
    public var requestedPaths: [String] { lock.withLock { paths } }

    public func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    deinit { stop() }

    private func serve() {
        defer { finished.signal() }
        while true {
            let connection = Interruptible.retry { accept(listener, nil, nil) }
            guard connection >= 0 else { return }
            if lock.withLock({ stopped }) {
                close(connection)
                return
            }
            lock.withLock { accepted += 1 }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536, !request.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let target = line.count > 1 ? String(line[1]) : "/"
        let path = String(target.prefix { $0 != "?" })
        let response = lock.withLock { () -> Response in
            paths.append(path)
            return routes[path] ?? .notFound
        }
        let head = (["HTTP/1.0 \(response.status)", "Content-Length: \(response.body.count)", "Connection: close"]
            + response.headers).joined(separator: "\r\n") + "\r\n\r\n"
        let bytes = Array(head.utf8) + response.body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
