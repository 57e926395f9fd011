import CurlSupport
import Foundation
import Threads

/// A stream socket descriptor (a Unix socket, or TCP over IPv4 or IPv6), owned: ``close()`` (or
/// `deinit`) releases it. Thin wrapper over `socket`/`bind`/`listen`/`accept`/`connect`/`read`/`write`,
/// retrying `EINTR`.
public final class StreamSocket {
    public private(set) var descriptor: Int32
    /// The peer's address, for a TCP connection that ``accept()`` returned; nil otherwise.
    public let peer: IPAddress?

    /// A socket error: the call that failed and errno's words.
    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let code: Int32
        public var description: String { "\(call): \(String(cString: strerror(code)))" }

        public init(call: String, code: Int32) {
            self.call = call
            self.code = code
        }
        /// No socket file, or nobody listening on it.
        public var isNotListening: Bool { code == ENOENT || code == ECONNREFUSED }
    }

    private init(descriptor: Int32, peer: IPAddress? = nil) {
        self.descriptor = descriptor
        self.peer = peer
    }

    deinit { close() }

    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(call: "socket path too long", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    private static func make(family: Int32 = AF_UNIX) throws -> StreamSocket {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        return StreamSocket(descriptor: fd)
    }

    /// Listens at `path` (a stale socket file left by a crash is replaced) with `mode` permissions.
    /// - Throws: ``Failure`` with `EADDRINUSE` when a process answers on the socket already there: it is
    ///   that process's, and removing it would cut its clients off.
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 16) throws -> StreamSocket {
        let socket = try make()
        var address = try address(path)
        if SocketFile(path: path) != nil {
            do {
                _ = try connect(to: path, timeoutSeconds: 1)
                throw Failure(call: "bind \(path): a running process answers on it", code: EADDRINUSE)
            } catch let failure as Failure where failure.isNotListening {
                unlink(path)
            }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw Failure(call: "bind \(path)", code: errno) }
        guard chmod(path, mode) == 0 else { throw Failure(call: "chmod \(path)", code: errno) }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else { throw Failure(call: "listen", code: errno) }
        return socket
    }

    /// Connects to the socket at `path`, waiting at most `timeoutSeconds` (when given) while the
    /// server's backlog is full (then it fails with `EAGAIN`).
    public static func connect(to path: String, timeoutSeconds: Int? = nil) throws -> StreamSocket {
        let socket = try make()
        var address = try address(path)
        // A Unix socket's connect waits for room in the listener's backlog as long as a send may block.
        if let timeoutSeconds { socket.setSendTimeout(seconds: timeoutSeconds) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw Failure(call: "connect \(path)", code: errno) }
        return socket
    }

    /// Listens for TCP connections on `host` (a numeric IPv4 or IPv6 address: `127.0.0.1`, `0.0.0.0`,
    /// `::`) and `port` (0 picks a free one: see ``localPort``).
    public static func listen(host: String, port: Int, backlog: Int32 = 16) throws -> StreamSocket {
        guard let address = IPAddress(host) else { throw Failure(call: "listen: '\(host)' is not a numeric IP address", code: EINVAL) }
        guard (0...65535).contains(port) else { throw Failure(call: "listen: port \(port) is not 0-65535", code: EINVAL) }
        let socket = try make(family: address.family == .v4 ? AF_INET : AF_INET6)
        var on: Int32 = 1
        // A restarted daemon binds again at once, while its old connections linger in TIME_WAIT.
        setsockopt(socket.descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withSocketAddress(address, port: UInt16(port)) { bind(socket.descriptor, $0, $1) }
        guard bound == 0 else { throw Failure(call: "bind \(host) port \(port)", code: errno) }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else { throw Failure(call: "listen", code: errno) }
        return socket
    }

    /// A listening socket this process was handed (systemd's socket activation), which it owns from now on.
    public static func adopting(listeningDescriptor descriptor: Int32) -> StreamSocket {
        StreamSocket(descriptor: descriptor)
    }

    /// Connects over TCP to `host` (a numeric IP address) and `port`.
    public static func connect(host: String, port: Int) throws -> StreamSocket {
        guard let address = IPAddress(host), (0...65535).contains(port) else {
            throw Failure(call: "connect: '\(host)' port \(port) is not an IP address and port", code: EINVAL)
        }
        let socket = try make(family: address.family == .v4 ? AF_INET : AF_INET6)
        let result = withSocketAddress(address, port: UInt16(port)) { Glibc.connect(socket.descriptor, $0, $1) }
        guard result == 0 else { throw Failure(call: "connect \(host) port \(port)", code: errno) }
        return socket
    }

    /// The local port of a TCP socket (the one the kernel picked for port 0); nil for a Unix socket.
    public var localPort: Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        return Self.endpoint(storage)?.port
    }

    /// Calls `body` with `address` and `port` as a `sockaddr` and its length.
    private static func withSocketAddress<Result>(_ address: IPAddress, port: UInt16,
                                                  _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        // Passed as a String, so Swift hands inet_pton a NUL-terminated copy (`&text` would pass the
        // String's own storage, which holds the characters only for short strings).
        let text = address.description
        switch address.family {
        case .v4:
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, text, &socketAddress.sin_addr)
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, text, &socketAddress.sin6_addr)
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    /// The IP address and port in `storage`; nil for anything but IPv4 and IPv6.
    private static func endpoint(_ storage: sockaddr_storage) -> (address: IPAddress, port: Int)? {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer -> (address: IPAddress, port: Int)? in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socketAddress in
                    var bits = socketAddress.pointee.sin_addr
                    guard inet_ntop(AF_INET, &bits, &text, socklen_t(text.count)) != nil,
                          let address = IPAddress(String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)) else { return nil }
                    return (address, Int(UInt16(bigEndian: socketAddress.pointee.sin_port)))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { socketAddress in
                    var bits = socketAddress.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &bits, &text, socklen_t(text.count)) != nil,
                          let address = IPAddress(String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)) else { return nil }
                    return (address, Int(UInt16(bigEndian: socketAddress.pointee.sin6_port)))
                }
            default:
                return nil
            }
        }
    }

    /// Waits for a client; nil once the socket was closed (shutdown).
    public func accept() -> StreamSocket? {
        while descriptor >= 0 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(descriptor, $0, &length) }
            }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return StreamSocket(descriptor: fd, peer: Self.endpoint(storage)?.address)
            }
            if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                if errno == EMFILE || errno == ENFILE { usleep(100_000) }
                continue
            }
            return nil
        }
        return nil
    }

    /// Limits how long a `write` may block (a client that never reads).
    public func setSendTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Limits how long a `read` may block.
    public func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits until there is something to read (or the peer left) or `deadline` passes.
    /// - Returns: false when the deadline passed first.
    public func waitUntilReadable(before deadline: DispatchTime) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let now = DispatchTime.now()
            guard now < deadline else { return false }
            let milliseconds = (deadline.uptimeNanoseconds - now.uptimeNanoseconds + 999_999) / 1_000_000
            let ready = poll(&entry, 1, Int32(clamping: milliseconds))
            if ready < 0 && errno == EINTR { continue }
            // Ready, hung up, or an error that the next read reports.
            if ready != 0 { return true }
        }
    }

    /// Writes all of `data`; false when the peer is gone or too slow.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Interruptible.retry { send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads what is available (blocking until something is); empty at end of stream or on error.
    public func read(maximum: Int = 4096) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = Interruptible.retry { Glibc.read(descriptor, &buffer, maximum) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }
}
