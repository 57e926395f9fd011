import Foundation
@testable import Supervisor
import WavedialConfig
import WavedialControl
import XCTest

/// The MPD server's connections over real loopback sockets: a silent client is closed after the idle
/// timeout but one waiting in `idle` is not, and `idle` hears of the radio's changes.
final class MpdServerTests: XCTestCase {
    /// A radio whose status a test changes, handing each change to the server's subscription.
    private final class ChangingRadio: MpdRadio, @unchecked Sendable {
        private let lock = NSLock()
        private var current: RadioStatus
        private var subscriber: ((RadioStatus) -> Bool)?

        init() {
            current = try! JSONDecoder().decode(RadioStatus.self, from: Data(#"{"state":"idle","volume":50,"muted":false,"favorite":false,"band":"nearby","needle_mhz":94.1,"sleep_remaining_s":null,"next_alarm":null}"#.utf8))
        }

        var status: RadioStatus { lock.withLock { current } }
        func dialListing() -> DialListing { DialListing(band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 94.1, dial: [], favorites: []) }
        func perform(_ command: ControlCommand) -> ControlResponse { ControlResponse(ok: true, status: status) }
        func request(_ intent: RadioIntent) {}

        func subscribe(_ send: @escaping @Sendable (RadioStatus) -> Bool) -> () -> Void {
            lock.withLock { subscriber = send }
            _ = send(status)
            return { [weak self] in self?.lock.withLock { self?.subscriber = nil } }
        }

        func setVolume(_ volume: Int) {
            let (status, send) = lock.withLock { () -> (RadioStatus, ((RadioStatus) -> Bool)?) in
                current.volume = volume
                return (current, subscriber)
            }
            _ = send?(status)
        }
    }

    private var server: MpdServer!
    private let radio = ChangingRadio()

    override func setUpWithError() throws {
        var settings = ListenerSettings(port: 0)
        settings.isEnabled = true
        server = MpdServer(settings: settings, radio: radio, logger: .init(label: "test"), idleTimeout: 0.5)
        try server.start()
    }

    override func tearDown() {
        server.stop(waitingUpTo: 2)
    }

    private func connect() throws -> (StreamSocket, () -> String?) {
        let client = try StreamSocket.connect(host: "127.0.0.1", port: try XCTUnwrap(server.port))
        client.setReceiveTimeout(seconds: 5)
        var reader = LineReader(maximumLength: 4096)
        var lines: [String] = []
        let next = { () -> String? in
            while lines.isEmpty {
                let bytes = client.read()
                guard !bytes.isEmpty else { return nil }
                for case .line(let text) in reader.feed(bytes) { lines.append(text) }
            }
            return lines.removeFirst()
        }
        XCTAssertEqual(next(), "OK MPD 0.23.0")
        return (client, next)
    }

    func testASilentClientIsClosedAfterTheIdleTimeoutButOneInIdleIsNot() throws {
        let (silent, silentLines) = try connect()
        let (waiting, waitingLines) = try connect()
        XCTAssertTrue(waiting.write(Data("idle\n".utf8)))
        XCTAssertNil(silentLines(), "closed by the server")
        _ = silent
        usleep(1_000_000)
        XCTAssertTrue(waiting.write(Data("noidle\n".utf8)))
        XCTAssertEqual(waitingLines(), "OK", "still served, twice the idle timeout later")
    }

    func testIdleHearsOfTheRadiosChanges() throws {
        let (client, lines) = try connect()
        XCTAssertTrue(client.write(Data("idle player mixer\n".utf8)))
        usleep(200_000)
        radio.setVolume(20)
        XCTAssertEqual(lines(), "changed: mixer")
        XCTAssertEqual(lines(), "OK")
        XCTAssertTrue(client.write(Data("getvol\n".utf8)))
        XCTAssertEqual(lines(), "volume: 20")
    }
}
