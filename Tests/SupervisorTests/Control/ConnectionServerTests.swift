import Foundation
import WavedialControl
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The TCP side of the sockets and the server the control socket, MPD and the web page share.
final class ConnectionServerTests: XCTestCase {
    /// An echo server on loopback that admits clients while `admitting` says so.
    private func echoServer(maximumClients: Int = 4, admitting: @escaping (StreamSocket) -> Bool = { _ in true })
        throws -> (ConnectionServer, Int) {
        let listener = try StreamSocket.listen(host: "127.0.0.1", port: 0)
        let port = try XCTUnwrap(listener.localPort)
        let server = ConnectionServer(name: "test-echo", maximumClients: maximumClients, sendTimeoutSeconds: 2,
                                      admits: admitting) { client in
            while true {
                let bytes = client.read()
                guard !bytes.isEmpty, client.write(Data(bytes)) else { return }
            }
        }
        server.start(listening: listener)
        return (server, port)
    }

    private func echo(_ text: String, through socket: StreamSocket) -> String {
        XCTAssertTrue(socket.write(Data(text.utf8)))
        var received: [UInt8] = []
        while received.count < text.utf8.count {
            guard socket.waitUntilReadable(before: .now() + 5) else { break }
            let bytes = socket.read()
            if bytes.isEmpty { break }
            received += bytes
        }
        return String(decoding: received, as: UTF8.self)
    }

    func testServesTCPClientsAndKnowsTheirAddress() throws {
        let peers = Box<[String]>([])
        let (server, port) = try echoServer { client in
            peers.update { $0.append(client.peer?.description ?? "none") }
            return true
        }
        defer { server.stop(waitingUpTo: 5) }
        let first = try StreamSocket.connect(host: "127.0.0.1", port: port)
        let second = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertEqual(echo("hello\n", through: first), "hello\n")
        XCTAssertEqual(echo("radio\n", through: second), "radio\n")
        XCTAssertEqual(peers.value, ["127.0.0.1", "127.0.0.1"])
    }

    func testRefusedClientIsClosedAtOnce() throws {
        let (server, port) = try echoServer { _ in false }
        defer { server.stop(waitingUpTo: 5) }
        let client = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(client.waitUntilReadable(before: .now() + 5))
        XCTAssertEqual(client.read(), [], "a refused client reads the end of the stream")
        XCTAssertEqual(server.servedClientCount, 0)
    }

    func testClientsBeyondTheLimitWaitUntilOneLeaves() throws {
        let (server, port) = try echoServer(maximumClients: 1)
        defer { server.stop(waitingUpTo: 5) }
        let first = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertEqual(echo("one\n", through: first), "one\n")
        let second = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertTrue(second.write(Data("two\n".utf8)))
        XCTAssertFalse(second.waitUntilReadable(before: .now() + 0.5), "the second waits while the first is served")
        first.close()
        XCTAssertTrue(second.waitUntilReadable(before: .now() + 5))
        XCTAssertEqual(String(decoding: second.read(), as: UTF8.self), "two\n")
    }

    func testStopDisconnectsClientsAndFreesThePort() throws {
        let (server, port) = try echoServer()
        let client = try StreamSocket.connect(host: "127.0.0.1", port: port)
        XCTAssertEqual(echo("x", through: client), "x")
        XCTAssertTrue(server.stop(waitingUpTo: 5))
        XCTAssertTrue(client.waitUntilReadable(before: .now() + 5))
        XCTAssertEqual(client.read(), [])
        let again = try StreamSocket.listen(host: "127.0.0.1", port: port)
        XCTAssertEqual(again.localPort, port)
    }

    func testListensOnIPv6AndRefusesNamesAndBadPorts() throws {
        let listener = try StreamSocket.listen(host: "::1", port: 0)
        XCTAssertNotNil(listener.localPort)
        XCTAssertThrowsError(try StreamSocket.listen(host: "localhost", port: 0)) { error in
            XCTAssertTrue("\(error)".contains("not a numeric IP address"), "\(error)")
        }
        XCTAssertThrowsError(try StreamSocket.listen(host: "127.0.0.1", port: 70000))
        XCTAssertThrowsError(try StreamSocket.listen(host: "127.0.0.1", port: -1))
    }
}

/// `StreamSocket.listen(host:)` binds the address it is given, whatever its length: an address of 15
/// characters or more (no longer inline in Swift's small-string form) bound every interface.
final class StreamSocketBindTests: XCTestCase {
    func testListensOnlyOnTheAddressGiven() throws {
        let listener = try StreamSocket.listen(host: "127.100.100.100", port: 0)
        let port = try XCTUnwrap(listener.localPort)
        XCTAssertNoThrow(try StreamSocket.connect(host: "127.100.100.100", port: port))
        XCTAssertThrowsError(try StreamSocket.connect(host: "127.0.0.1", port: port), "not bound to 0.0.0.0")
    }
}
