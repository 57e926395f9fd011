import Foundation
import Logging
import Threads

/// The demo band's stream server: HTTP with ICY metadata on 127.0.0.1, on a port the kernel picks, serving
/// each ``DemoStation`` at `/demo/<slug>` (``DemoStreamConnection``).
///
/// Bounded: at most ``maximumListeners`` connections at once (the radio needs one; more get 503 at once),
/// each on its own `wd-demo-stream` thread, accepted by `wd-demo-accept`. ``stop(waitingUpTo:)`` closes the
/// port and ends every connection, so nothing of it outlives the daemon. Start and stop from one thread.
final class DemoStreamServer: @unchecked Sendable {
    static let maximumListeners = 8

    private let media: DemoMedia
    private let stations: [DemoStation]
    private let logger: Logger
    private let latch = StopLatch()
    /// Guards `connections` and `running`, and is waited on for the threads to end.
    private let state = ConditionLock()
    /// Open listener sockets by connection number, so ``stop(waitingUpTo:)`` can shut them.
    private var connections: [Int: Int32] = [:]
    private var nextConnection = 0
    /// Threads of this server still at work (the accept thread and each connection's).
    private var running = 0
    private var listener: Int32 = -1
    private var wakePipe: [Int32] = [-1, -1]

    /// The port it listens on, once started.
    private(set) var port = 0

    init(media: DemoMedia, stations: [DemoStation], logger: Logger) {
        self.media = media
        self.stations = stations
        self.logger = logger
    }

    /// The URL a station is served at.
    func url(of station: DemoStation) -> String { "http://127.0.0.1:\(port)/demo/\(station.slug)" }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting.
    /// - Throws: ``DemoBandError/serverFailed(call:errno:)``.
    func start() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DemoBandError.serverFailed(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> String? in
                if bind(fd, pointer, length) != 0 { return "bind" }
                if getsockname(fd, pointer, &length) != 0 { return "getsockname" }
                return listen(fd, 16) == 0 ? nil : "listen"
            }
        }
        if let call = bound {
            let number = errno
            close(fd)
            throw DemoBandError.serverFailed(call: call, errno: number)
        }
        guard pipe(&wakePipe) == 0 else {
            let number = errno
            close(fd)
            throw DemoBandError.serverFailed(call: "pipe", errno: number)
        }
        for end in wakePipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock { running += 1 }
        NamedThread.start(name: "wd-demo-accept") { [self] in
            acceptLoop()
            finished()
        }
    }

    /// Closes the port, ends every connection and waits up to `timeout` seconds for the threads.
    /// - Returns: whether they all ended.
    func stop(waitingUpTo timeout: Double) -> Bool {
        guard listener >= 0 else { return true }
        latch.stop()
        _ = write(wakePipe[1], [UInt8(1)], 1)
        let deadline = ConditionLock.Deadline.after(seconds: timeout)
        let ended = state.withLock { () -> Bool in
            // Shut, not closed: the connection's own thread closes its socket once it has let go of it.
            for socket in connections.values { shutdown(socket, Int32(SHUT_RDWR)) }
            while running > 0 {
                if !state.wait(until: deadline) { break }
            }
            return running == 0
        }
        // Closed only once the accept thread has ended, so it never polls a closed (or reused) descriptor.
        guard ended else { return false }
        close(listener)
        close(wakePipe[0])
        close(wakePipe[1])
        listener = -1
        return true
    }

    private func finished() {
        state.withLock {
            running -= 1
            state.broadcast()
        }
    }

    private func acceptLoop() {
        while !latch.isStopped {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
            let ready = Interruptible.retry { poll(&polled, 2, -1) }
            guard ready > 0, polled[1].revents == 0 else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // A connection reset before it was taken, or out of descriptors for a moment: go on.
                logger.debug("demo band: accept failed", metadata: ["error": "\(String(cString: strerror(errno)))"])
                if errno != EINTR && errno != ECONNABORTED { _ = latch.sleep(seconds: 0.1) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let number: Int? = state.withLock {
                guard connections.count < Self.maximumListeners, !latch.isStopped else { return nil }
                nextConnection += 1
                connections[nextConnection] = client
                running += 1
                return nextConnection
            }
            guard let number else {
                refuseBusy(client)
                continue
            }
            let connection = DemoStreamConnection(socket: client, media: media, stations: stations, latch: latch, logger: logger)
            NamedThread.start(name: "wd-demo-stream") { [self] in
                connection.serve()
                state.withLock { connections[number] = nil }
                close(client)
                finished()
            }
        }
    }

    /// 503 to a listener over the limit, without waiting on it.
    private func refuseBusy(_ client: Int32) {
        let reply = Array("HTTP/1.0 503 Service Unavailable\r\nConnection: close\r\n\r\n".utf8)
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(client)
    }
}
