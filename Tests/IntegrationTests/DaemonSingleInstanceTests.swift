import Foundation
import WavedialControl
import WavedialTestSupport
import XCTest

/// One daemon per database, and a control socket only ever removed by the daemon that made it: a second
/// `wavediald` on the same config leaves at once and the first keeps answering. Black box, headless, no
/// network (the catalog's server is a closed loopback port).
final class DaemonSingleInstanceTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var daemons: [DaemonProcess] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        cli.environment["WAVEDIAL_CONFIG"] = try writeConfig("config.toml", database: "db/wavedial.sqlite")
    }

    override func tearDown() {
        for daemon in daemons { _ = daemon.terminate() }
        unlink(socketPath)
        directory.remove()
    }

    private func writeConfig(_ name: String, database: String) throws -> String {
        var config = RadioConfigFile(directory: directory, servers: ["http://127.0.0.1:\(freeLoopbackPort())"], socket: socketPath)
        config.database = directory.path(database)
        let path = directory.path(name)
        try config.write(to: path)
        return path
    }

    private func daemon(_ config: String, _ modeArguments: [String] = ["--headless"]) throws -> DaemonProcess {
        let daemon = try DaemonProcess(configPath: config, socketPath: socketPath,
                                       logPath: directory.path("daemon-\(daemons.count).log"), modeArguments: modeArguments)
        daemons.append(daemon)
        return daemon
    }

    private func assertAnswers(file: StaticString = #filePath, line: UInt = #line) throws {
        let status = try cli.run("status")
        XCTAssertEqual(status.status, 0, status.stderr, file: file, line: line)
    }

    func testASecondDaemonOnTheSameDatabaseLeavesAtOnceAndTheFirstAnswersOn() throws {
        let config = try XCTUnwrap(cli.environment["WAVEDIAL_CONFIG"])
        let first = try daemon(config)
        XCTAssertTrue(first.waitUntilReady(), first.log)
        let database = directory.path("db/wavedial.sqlite")
        for mode in [["--headless"], ["--simulate"]] {
            let second = try daemon(config, mode)
            // At once: long before a start that would reach the socket (bounded loosely on a busy machine).
            XCTAssertEqual(second.waitForExit(timeout: 10), 69, "\(mode): \(second.log)")
            XCTAssertEqual(second.log, "wavediald: another wavediald already runs on \(database) (pid \(first.process.processIdentifier))\n",
                           "\(mode)")
            XCTAssertNotNil(SocketFile(path: socketPath), "\(mode): the first daemon's socket is still there")
            try assertAnswers()
        }
        XCTAssertEqual(first.terminate(), 0, first.log)
        // The lock went with the process: a daemon starts again on the same database.
        let next = try daemon(config)
        XCTAssertTrue(next.waitUntilReady(), next.log)
        try assertAnswers()
    }

    /// Two databases, one socket path (a config copied and half edited): the second may not take the
    /// socket a live daemon answers on.
    func testADaemonDoesNotTakeTheSocketALiveDaemonAnswersOn() throws {
        let first = try daemon(try XCTUnwrap(cli.environment["WAVEDIAL_CONFIG"]))
        XCTAssertTrue(first.waitUntilReady(), first.log)
        let second = try daemon(try writeConfig("other.toml", database: "other/wavedial.sqlite"))
        XCTAssertEqual(second.waitForExit(timeout: 30), 1, second.log)
        XCTAssertTrue(second.log.contains("a running process answers on it"), second.log)
        XCTAssertNotNil(SocketFile(path: socketPath))
        try assertAnswers()
    }

    /// A daemon whose socket file was replaced by another daemon's leaves the newer one in place at exit.
    func testADaemonRemovesOnlyTheSocketItMade() throws {
        let first = try daemon(try XCTUnwrap(cli.environment["WAVEDIAL_CONFIG"]))
        XCTAssertTrue(first.waitUntilReady(), first.log)
        unlink(socketPath)
        let second = try daemon(try writeConfig("other.toml", database: "other/wavedial.sqlite"))
        XCTAssertTrue(second.waitUntilReady(), second.log)
        let secondsSocket = try XCTUnwrap(SocketFile(path: socketPath))
        XCTAssertEqual(first.terminate(), 0, first.log)
        XCTAssertEqual(SocketFile(path: socketPath), secondsSocket, "the first daemon removed the second's socket")
        try assertAnswers()
        XCTAssertEqual(second.terminate(), 0, second.log)
        XCTAssertNil(SocketFile(path: socketPath), "a daemon removes the socket it made")
    }
}
