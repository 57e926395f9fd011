import Foundation
import GRDB
import WavedialCore
import WavedialTestSupport
import XCTest

/// The database failing under the CLI and the daemon: a full disk (a tmpfs of the test's own, filled), a
/// corrupt file. Every such failure, direct or through the daemon, is exit 74 and one line; reading works
/// on a full disk.
final class DatabaseFailureTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var disk: FullDisk!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var daemon: DaemonProcess?
    private let jazz = "00000000-0000-4000-8000-0000000000a1"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        disk = try FullDisk()
        // Two to find, and enough others that a sync needs more room than a nearly full disk has.
        let named = [(jazz, "Jazz 94.1", 52.53), ("00000000-0000-4000-8000-0000000000c1", "Talk 94.5", 52.51)]
        let others = (0..<3000).map { (String(format: "00000000-0000-4000-9000-%012d", $0), "Filler station \($0)", 40.0) }
        let stations = (named + others).map { uuid, name, lat in
            var station = F.station(uuid, name, lat: lat, lon: 13.4, tags: "a tag or two,to take some room")
            station.url = "http://127.0.0.1:9/\(uuid)"
            return station
        }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.database = disk.path("wavedial.sqlite")
        let configPath = directory.path("config.toml")
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

    private func run(_ arguments: String...) throws -> CLIRunner.Result { try cli.run(arguments) }

    private func assertDatabaseFailure(_ result: CLIRunner.Result, prefix: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 74, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix(prefix), result.stderr, file: file, line: line)
    }

    private func startDaemon() throws {
        let daemon = try DaemonProcess(configPath: try XCTUnwrap(cli.environment["WAVEDIAL_CONFIG"]), socketPath: socketPath,
                                       logPath: directory.path("daemon.log"))
        self.daemon = daemon
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
    }

    /// Empties the write-ahead log and cuts it to nothing, then fills the disk: the next write needs room the
    /// disk no longer has.
    private func emptyTheLogAndFillTheDisk() throws {
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)  // the daemon may be writing its state just then
        _ = try DatabaseQueue(path: disk.path("wavedial.sqlite"), configuration: waiting).writeWithoutTransaction { db in
            try db.checkpoint(.truncate)
        }
        try disk.fill()
    }

    func testASyncThatFillsTheDiskIsADatabaseFailure() throws {
        XCTAssertEqual(try run("location", "set", "52.5", "13.4").status, 0)
        try disk.fill(leavingKiB: 64)
        let sync = try run("sync")
        assertDatabaseFailure(sync, prefix: "wavedial: sync failed: ")
        XCTAssertTrue(sync.stderr.contains("SQLite error"), sync.stderr)
    }

    func testWritesThroughTheDaemonOnAFullDiskAreDatabaseFailures() throws {
        XCTAssertEqual(try run("sync").status, 0)
        try startDaemon()
        try emptyTheLogAndFillTheDisk()
        // The CLI reads the database to find the station, the daemon writes: either fails as the database.
        assertDatabaseFailure(try run("fav", "add", jazz), prefix: "wavedial: ")
        // The daemon alone touches the database for these.
        assertDatabaseFailure(try run("location", "set", "48.1", "11.6"), prefix: "wavedial: not saved: ")
        assertDatabaseFailure(try run("alarm", "add", "07:00"), prefix: "wavedial: ")
        let sync = try run("sync")
        XCTAssertEqual(sync.stderrLines.first, "syncing through the running daemon…")
        XCTAssertEqual(sync.status, 74, sync.stderr)
        XCTAssertEqual(sync.stderrLines.count, 2, sync.stderr)
        XCTAssertTrue(sync.stderrLines.last?.hasPrefix("wavedial: sync failed: ") == true, sync.stderr)
        XCTAssertEqual(try run("status").status, 0, "the daemon answers on")
    }

    /// "ok" means on disk: a command whose change the disk cannot take is a database failure, the radio keeps what
    /// the disk has, and once there is room the same command is saved with nothing stored before lost.
    func testAVolumeTheDiskCannotTakeIsAnErrorAndTheRadioKeepsTheSavedOne() throws {
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try run("fav", "add", jazz).status, 0)
        try startDaemon()
        XCTAssertEqual(try run("volume", "30").status, 0)
        try emptyTheLogAndFillTheDisk()
        let refused = try run("volume", "40")
        assertDatabaseFailure(refused, prefix: "wavedial: volume: state not saved: ")
        let status = try XCTUnwrap(try run("status", "--json").json() as? [String: Any])
        XCTAssertEqual(status["volume"] as? Int, 30, "the radio keeps the volume the disk has")
        XCTAssertEqual(try run("tune", "94.1").status, 74, "a station the disk cannot remember is refused too")

        try FileManager.default.removeItem(atPath: disk.path("filler"))
        XCTAssertEqual(try run("volume", "40").status, 0)
        XCTAssertEqual(daemon?.terminate(), 0, daemon?.log.suffix(2000).description ?? "")
        daemon = nil
        let database = try WavedialDatabase.open(path: disk.path("wavedial.sqlite"))
        XCTAssertEqual(try database.applianceState().volume, 40)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [jazz])
    }

    func testTheDaemonOnACorruptDatabaseExits74() throws {
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: disk.path("wavedial.sqlite")))
        let daemon = try DaemonProcess(configPath: try XCTUnwrap(cli.environment["WAVEDIAL_CONFIG"]), socketPath: socketPath,
                                       logPath: directory.path("daemon.log"))
        self.daemon = daemon
        XCTAssertEqual(daemon.waitForExit(timeout: 30), 74, daemon.log)
        XCTAssertTrue(daemon.log.contains("cannot open the database"), daemon.log)
        assertDatabaseFailure(try run("fav", "add", jazz), prefix: "wavedial: cannot open the database ")
    }

    func testListingsReadAFullDisk() throws {
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try run("fav", "add", jazz).status, 0)
        try disk.fill()
        let favorites = try run("fav", "list")
        XCTAssertEqual(favorites.status, 0, favorites.stderr)
        XCTAssertTrue(favorites.stdout.contains("Jazz 94.1"), favorites.stdout)
        let dial = try run("dial")
        XCTAssertEqual(dial.status, 0, dial.stderr)
        XCTAssertTrue(dial.stdout.contains("Talk 94.5"), dial.stdout)
        let search = try run("stations", "search", "jazz")
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("Jazz 94.1"), search.stdout)
        // A write on the same full disk is still the database's failure.
        assertDatabaseFailure(try run("fav", "remove", jazz), prefix: "wavedial: ")
    }

    /// With the daemon running (its `-shm` index there already), the listings read too.
    func testListingsReadAFullDiskBesideTheDaemon() throws {
        XCTAssertEqual(try run("sync").status, 0)
        try startDaemon()
        try disk.fill()
        let search = try run("stations", "search", "talk")
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("Talk 94.5"), search.stdout)
        XCTAssertEqual(try run("fav", "list").status, 0)
        XCTAssertEqual(try run("dial").status, 0)
    }
}
