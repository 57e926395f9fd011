import Logging
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The demo band's loopback server with real sockets: what a player gets (ICY metadata at its place,
/// the loop's bytes), what a hostile local client gets (refusals, a bounded number of slots, idle
/// clients dropped), and a stop that ends every stream and closes the port.
final class DemoStreamServerTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var server: DemoStreamServer!
    private var loop: [UInt8] = []
    private let station = DemoStation.band[0]

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // Not audio: the server sends bytes; 16,000 a second with the loop's length, so the first metadata
        // block comes within the connection's burst.
        loop = (0..<(DemoStation.loopSeconds * 16_000)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let media = DemoMedia(directory: directory.path(""))
        try Data(loop).write(to: URL(fileURLWithPath: media.path(of: station)))
        server = DemoStreamServer(media: media, stations: [station], logger: Logger(label: "test"))
        try server.start()
    }

    override func tearDown() {
        XCTAssertTrue(server.stop(waitingUpTo: 5))
        directory.remove()
    }

    func testAPlayerGetsTheLoopWithTheProgrammeAsICYTitle() throws {
        let client = try LoopbackClient(port: server.port)
        client.send("GET /demo/\(station.slug) HTTP/1.1\r\nHost: x\r\nIcy-MetaData: 1\r\n\r\n")
        let head = try XCTUnwrap(client.readHead())
        XCTAssertTrue(head.hasPrefix("HTTP/1.0 200 OK\r\n"), head)
        XCTAssertTrue(head.contains("Content-Type: audio/mpeg\r\n"), head)
        XCTAssertTrue(head.contains("icy-metaint: 16000\r\n"), head)
        XCTAssertTrue(head.contains("icy-name: \(station.name)\r\n"), head)
        XCTAssertEqual(try client.read(count: 16_000), Array(loop[0..<16_000]))
        let length = Int(try client.read(count: 1)[0]) * 16
        let metadata = String(decoding: try client.read(count: length), as: UTF8.self)
        XCTAssertTrue(metadata.hasPrefix("StreamTitle='\(station.programmes[0])';"), metadata)
        // The audio goes on where it was; an unchanged title is a zero-length block.
        XCTAssertEqual(try client.read(count: 16_000), Array(loop[16_000..<32_000]))
        XCTAssertEqual(try client.read(count: 1), [0])
    }

    func testWithoutTheMetadataWishTheBytesAreTheLoopAlone() throws {
        let client = try LoopbackClient(port: server.port)
        client.send("GET /demo/\(station.slug) HTTP/1.0\r\n\r\n")
        let head = try XCTUnwrap(client.readHead())
        XCTAssertFalse(head.contains("icy-metaint"), head)
        XCTAssertEqual(try client.read(count: 20_000), Array(loop[0..<20_000]))
    }

    func testBadRequestsGetTheirStatusAndTheConnectionClosed() throws {
        let cases = [
            ("GET /demo/nothing HTTP/1.1\r\n\r\n", "404"), ("GET /etc/passwd HTTP/1.1\r\n\r\n", "404"),
            ("DELETE /demo/\(station.slug) HTTP/1.1\r\n\r\n", "405"), ("\u{1B}[2J\r\n\r\n", "400"),
            ("GET /" + String(repeating: "a", count: 5000), "431"),
        ]
        for (request, status) in cases {
            let client = try LoopbackClient(port: server.port)
            client.send(request)
            let reply = client.readToEnd()
            XCTAssertTrue(reply.hasPrefix("HTTP/1.0 \(status) "), "\(request.prefix(40).debugDescription): \(reply.debugDescription)")
        }
    }

    func testListenersAreBoundedAndSilentOnesAreDropped() throws {
        // Connections that never send a request hold every slot for a while...
        let idle = try (0..<DemoStreamServer.maximumListeners).map { _ in try LoopbackClient(port: server.port) }
        usleep(200_000)
        let refused = try LoopbackClient(port: server.port)
        XCTAssertTrue(refused.readToEnd().hasPrefix("HTTP/1.0 503 "))
        // ...until the server drops them (5 s without a request), and a player is served again.
        for client in idle { XCTAssertEqual(client.readToEnd(), "", "a silent client is closed, not answered") }
        let player = try LoopbackClient(port: server.port)
        player.send("GET /demo/\(station.slug) HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try XCTUnwrap(player.readHead()).prefix(15), "HTTP/1.0 200 OK")
    }

    func testStopEndsEveryStreamAndClosesThePort() throws {
        let listeners = try (0..<3).map { _ in try LoopbackClient(port: server.port) }
        for listener in listeners {
            listener.send("GET /demo/\(station.slug) HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n")
            XCTAssertNotNil(listener.readHead())
        }
        let port = server.port
        XCTAssertTrue(server.stop(waitingUpTo: 5))
        for listener in listeners { _ = listener.readToEnd() }  // returns: the server closed them
        XCTAssertThrowsError(try LoopbackClient(port: port), "the port still takes connections")
    }
}

/// A TCP client of 127.0.0.1 with blocking reads (10 s at most each).
private final class LoopbackClient {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw FixtureError("connect to port \(port) failed: \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The response head up to its blank line, nil if the connection ended first.
    func readHead() -> String? {
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard let byte = try? read(count: 1) else { return nil }
            head += byte
        }
        return String(decoding: head, as: UTF8.self)
    }

    func read(count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, count - filled, 0) }
            guard got > 0 else { throw FixtureError("the connection ended after \(filled) of \(count) bytes") }
            filled += got
        }
        return bytes
    }

    /// Everything until the server closes (or 10 s of silence).
    func readToEnd() -> String {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = recv(fd, &buffer, buffer.count, 0)
            guard got > 0 else { break }
            all += buffer[0..<got]
        }
        return String(decoding: all, as: UTF8.self)
    }
}
