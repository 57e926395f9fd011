import Foundation
import Hardware
import Logging
import Threads
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The control socket under clients that hold on to it: idle connections, requests that never end,
/// subscribers that never read. A real socket, a real `ControlServer` and a real `RadioController`
/// (over an in-memory catalog, with a player that only records), wired as the daemon wires them.
final class ControlSocketExhaustionTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String!
    private var controller: RadioController!
    private var server: ControlServer!
    /// The idle timeout the server runs with here: short, so the tests are quick.
    private let idleTimeout = 0.5

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        path = directory.path("control.sock")
        let database = try WavedialDatabase.inMemory(with: [
            StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Jazz 94.1", lat: 52.53, lon: 13.41),
        ])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        let controller = RadioController(configuration: configuration, database: database, player: RecordingPlayer(),
                                         display: { _ in }, logger: Logger(label: "test"))
        controller.start(resume: false)
        self.controller = controller
        server = ControlServer(path: path, logger: Logger(label: "test"), idleTimeout: idleTimeout,
                               respond: { controller.perform($0) }, subscribe: controller.subscribe)
        try server.start()
    }

    override func tearDown() {
        server.stop()
        controller.shutdown()
        directory.remove()
    }

    private func connect() throws -> StreamSocket { try StreamSocket.connect(to: path) }

    /// One reply line, or nil when the server closed the connection first.
    private func readLine(_ socket: StreamSocket) -> String? {
        var bytes: [UInt8] = []
        socket.setReceiveTimeout(seconds: 10)
        while true {
            guard let byte = socket.read(maximum: 1).first else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Whether the server hung up on `socket` before `deadline`, however much it left unread.
    private func serverHangsUp(on socket: StreamSocket, before deadline: Date) -> Bool {
        var entry = pollfd(fd: socket.descriptor, events: 0, revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        return poll(&entry, 1, milliseconds) == 1 && entry.revents & Int16(POLLHUP) != 0
    }

    func testIdleConnectionsDoNotLockOthersOut() throws {
        // More idle connections than the server serves at once: the ones beyond wait to be taken.
        var idle: [StreamSocket] = []
        for _ in 0..<(ControlServer.maximumClients + 4) { idle.append(try connect()) }
        // A request from someone else is answered (once the idle ones have timed out, at the latest).
        let reply = try ControlClient(path: path).send(.status)
        XCTAssertTrue(reply.ok, reply.error ?? "")
        XCTAssertEqual(reply.status?.state, .idle)
        let deadline = Date().addingTimeInterval(30)
        for socket in idle { XCTAssertTrue(serverHangsUp(on: socket, before: deadline), "an idle connection is closed") }
    }

    /// With the daemon's own timeouts: silent connections (more than it serves at once) are closed a
    /// second after connecting, so the CLI's request is answered in a few seconds, not after the idle
    /// timeout (bounded loosely: it is the order that matters).
    func testSilentConnectionsAreDroppedAfterASecondSoTheCLIIsAnsweredSoon() throws {
        let daemonsPath = directory.path("daemon.sock")
        let daemons = ControlServer(path: daemonsPath, logger: Logger(label: "test"),
                                    respond: { [controller] in controller!.perform($0) }, subscribe: controller.subscribe)
        try daemons.start()
        defer { daemons.stop() }
        var silent: [StreamSocket] = []
        for _ in 0..<(ControlServer.maximumClients + 4) { silent.append(try StreamSocket.connect(to: daemonsPath)) }
        let asked = Date()
        let reply = try ControlClient(path: daemonsPath).send(.status)
        XCTAssertTrue(reply.ok, reply.error ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(asked), ControlServer.defaultIdleTimeout / 2)
        XCTAssertTrue(serverHangsUp(on: silent[0], before: Date().addingTimeInterval(5)), "a silent connection is closed")
    }

    func testARequestThatNeverEndsIsClosedAfterTheIdleTimeout() throws {
        // A byte at a time, well within the idle timeout each, never a whole line.
        let socket = try connect()
        var closed = false, written = 0
        while !closed && written < 400 {
            closed = !socket.write(Data("x".utf8))
            written += 1
            usleep(50_000)
        }
        XCTAssertTrue(closed, "a connection that never completes a request is closed")
        XCTAssertEqual(try ControlClient(path: path).send(.status).ok, true)
    }

    func testSubscribersThatNeverReadAreDroppedAndTheControllerKeepsAnswering() throws {
        // As many subscribers as may subscribe at once, each reading only its first status.
        var subscribers: [StreamSocket] = []
        for _ in 0..<ControlServer.maximumSubscribers {
            let socket = try connect()
            socket.write(Data("{\"command\":\"subscribe\"}\n".utf8))
            XCTAssertTrue(readLine(socket)?.contains("\"status\"") ?? false, "subscribed")
            subscribers.append(socket)
        }
        // The status changes thousands of times: far more than the subscribers' socket buffers hold.
        let now = MonotonicClock.now()
        for turn in 0..<4000 {
            controller.handle(InputEvent(.detent(delta: turn % 2 == 0 ? 1 : -1), at: now))
        }
        // Asked behind all those changes on the controller's queue, `status` is still answered within the
        // CLI's own reply bound (the controller's queue also answers the systemd watchdog's ping).
        let reply = try ControlClient(path: path).send(.status)
        XCTAssertTrue(reply.ok, reply.error ?? "")
        let deadline = Date().addingTimeInterval(30)
        for socket in subscribers {
            XCTAssertTrue(serverHangsUp(on: socket, before: deadline), "a subscriber that does not read is dropped")
        }
        // And a subscriber that reads is served afterwards.
        let reader = try connect()
        reader.write(Data("{\"command\":\"subscribe\"}\n".utf8))
        XCTAssertTrue(readLine(reader)?.contains("\"status\"") ?? false)
    }

    func testSubscribersBeyondTheirShareAreRefusedSoRequestsStillFindASlot() throws {
        var subscribers: [StreamSocket] = []
        for _ in 0..<ControlServer.maximumSubscribers {
            let socket = try connect()
            socket.write(Data("{\"command\":\"subscribe\"}\n".utf8))
            XCTAssertTrue(readLine(socket)?.contains("\"status\"") ?? false)
            subscribers.append(socket)
        }
        // Held open to the end: an optimized build would otherwise close them after their last use, above.
        try withExtendedLifetime(subscribers) {
            let extra = try connect()
            extra.write(Data("{\"command\":\"subscribe\"}\n".utf8))
            XCTAssertEqual(readLine(extra), #"{"error":"too many subscribers","ok":false}"#)
            XCTAssertNil(readLine(extra), "and closed")
            XCTAssertEqual(try ControlClient(path: path).send(.status).ok, true)
        }
    }
}
