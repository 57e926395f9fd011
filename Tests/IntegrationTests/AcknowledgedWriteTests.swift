import Foundation
import GRDB
import WavedialCore
import WavedialTestSupport
import XCTest

/// "ok" means on disk: a control command through the daemon whose write fails (the database on a full disk)
/// answers a database failure (exit 74, one line) and the radio keeps what the disk has; once there is room
/// again the same command is saved, and nothing stored before was lost.
final class AcknowledgedWriteTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var disk: FullDisk!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var configPath: String!
    private var daemon: DaemonProcess?
    private let jazz = "00000000-0000-4000-8000-0000000000a1"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        disk = try FullDisk()
        let stations = [(jazz, "Jazz 94.1", 52.53), ("00000000-0000-4000-8000-0000000000c1", "Talk 94.5", 52.51)].map { uuid, name, lat in
            var station = F.station(uuid, name, lat: lat, lon: 13.4)
            station.url = "http://127.0.0.1:9/\(uuid)"
            return station
        }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.database = disk.path("wavedial.sqlite")
        configPath = directory.path("config.toml")
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
    }

    override func tearDown() {
        _ = daemon?.terminate()
        catalog?.stop()
        if let socketPath { unlink(socketPath) }
        disk?.remove()
        directory?.remove()
    }

    private func status() throws -> [String: Any] {
        try XCTUnwrap(try cli.run("status", "--json").json() as? [String: Any])
    }

    func testAVolumeTheDiskCannotTakeIsAnErrorAndTheRadioKeepsTheSavedOne() throws {
        XCTAssertEqual(try cli.run("sync").status, 0)
        XCTAssertEqual(try cli.run("fav", "add", jazz).status, 0)
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        self.daemon = daemon
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        XCTAssertEqual(try cli.run("volume", "30").status, 0)

        // The write-ahead log emptied and cut to nothing: the next write needs room the disk no longer has.
        _ = try DatabaseQueue(path: disk.path("wavedial.sqlite")).writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try disk.fill()
        let refused = try cli.run("volume", "40")
        XCTAssertEqual(refused.status, 74, refused.stderr)
        XCTAssertEqual(refused.stderrLines.count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("wavedial: volume: state not saved: "), refused.stderr)
        XCTAssertEqual(try status()["volume"] as? Int, 30, "the radio keeps the volume the disk has")
        XCTAssertEqual(try cli.run("tune", "94.1").status, 74, "a station the disk cannot remember is refused too")

        // Room again: the same command is saved, and what was stored before is all there.
        try FileManager.default.removeItem(atPath: disk.path("filler"))
        XCTAssertEqual(try cli.run("volume", "40").status, 0)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log.suffix(2000).description)
        self.daemon = nil
        let database = try WavedialDatabase.open(path: disk.path("wavedial.sqlite"))
        XCTAssertEqual(try database.applianceState().volume, 40)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [jazz])
    }
}
