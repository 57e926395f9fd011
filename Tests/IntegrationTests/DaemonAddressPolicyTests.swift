import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The daemon keeps catalog stations out of the house: a station the catalog puts on loopback (where a
/// router's admin page or the radio's own services would be) is refused when tuned, with the reason in
/// the status and the log, and its server never sees a connection. The configuration allows nothing here
/// (`allowed_addresses = []`), so the real catalog policy rules.
final class DaemonAddressPolicyTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var house: ScriptedHTTPServer!
    private var catalog: RadioBrowserTestServer!
    private var daemon: DaemonProcess?
    private var cli = CLIRunner()
    private var socketPath: String!
    private let uuid = "00000000-0000-4000-8000-0000000000a7"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        house = try ScriptedHTTPServer(host: "127.0.0.1")
        house.route("/admin", .content("<html>router</html>", type: "audio/mpeg"))
        var station = F.station(uuid, "Evil FM 94.1", lat: 52.52, lon: 13.40)
        station.url = house.url("/admin")
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON([station]), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        let configPath = directory.path("config.toml")
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.allowedAddresses = []
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        self.daemon = daemon
    }

    override func tearDown() {
        _ = daemon?.terminate()
        house.stop()
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    private func status() -> [String: Any] {
        (try? cli.run("status", "--json").json() as? [String: Any]) ?? [:]
    }

    private func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        XCTAssertTrue(eventually(timeout: timeout, condition), "\(what); status: \(status()); log: \(daemon?.log.suffix(2000) ?? "")")
    }

    func testACatalogStationOnLoopbackIsRefusedAndNeverReached() throws {
        waitFor("the first-start sync") { (try? WavedialDatabase.open(path: directory.path("db/wavedial.sqlite")).stationCount()) == 1 }
        let tuned = try cli.run("tune", uuid)
        XCTAssertEqual(tuned.status, 0, tuned.stderr)
        waitFor("the refusal") { status()["error"] as? String == "Address not allowed" }
        XCTAssertEqual(status()["state"] as? String, "failed")
        waitFor("the reason in the log") {
            daemon?.log.contains("address 127.0.0.1 (loopback) not allowed for a catalog station") == true
        }
        XCTAssertEqual(house.connections, 0, "the station's server was never reached")
    }
}
