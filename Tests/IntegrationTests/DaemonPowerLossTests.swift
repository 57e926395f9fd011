import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// Pulled plugs on a playing radio: the daemon, playing a loopback Icecast stream, is SIGKILLed
/// at random moments (during start-up, while playing, in the middle of writes), hundreds of times.
/// After each kill the database is sound, every acknowledged favorite, volume and tuned station
/// is there, and the daemon starts again, resumes the last station and plays it.
///
/// `WAVEDIAL_KILL_CYCLES` sets the number of kills (CI: 150; a long run can do thousands);
/// `WAVEDIAL_STRESS_SEED` replays a run (the seed is in every failure message).
final class DaemonPowerLossTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var icecast: IcecastServer!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var configPath: String!
    private var databasePath: String { directory.path("db/wavedial.sqlite") }
    private let stationCount = 400

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30))
        // Every station plays the same loopback stream; the catalog is what differs between them.
        let stations = (0..<stationCount).map { n -> Station in
            var station = F.station(F.uuid(n), "Loop \(n)", lat: 52.5 + Double(n % 40) / 100, lon: 13.4)
            station.url = icecast.url
            return station
        }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        configPath = directory.path("config.toml")
        try RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath).write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        let synced = try cli.run("sync")
        XCTAssertEqual(synced.status, 0, synced.stderr)
    }

    override func tearDown() {
        icecast.stop()
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    /// What the database must hold after a kill: acknowledged values for sure; a value whose
    /// request was cut off by the kill may or may not have made it.
    private struct Expectation {
        var favorites: Set<String> = []
        var volume: Int = ApplianceState().volume
        var volumeInFlight: Set<Int> = []
        var station: String?
        var stationInFlight: Set<String> = []

        var volumes: Set<Int> { volumeInFlight.union([volume]) }
        var stations: Set<String?> { Set(stationInFlight.map { $0 }).union([station]) }
    }

    func testKillNineAtRandomMomentsLosesNothingAcknowledgedAndPlaysAgain() throws {
        let cycles = Int(ProcessInfo.processInfo.environment["WAVEDIAL_KILL_CYCLES"] ?? "") ?? 150
        let seed = UInt64(ProcessInfo.processInfo.environment["WAVEDIAL_STRESS_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        var random = SeededRandom(seed: seed)
        let context = "seed \(seed) (rerun with WAVEDIAL_STRESS_SEED=\(seed))"
        var expected = Expectation()
        var killsWhileStarting = 0, killsWhileWriting = 0, acknowledgedWrites = 0

        for cycle in 0..<cycles {
            let moment = "cycle \(cycle), \(context)"
            let daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
            if cycle > 0 && Int.random(in: 0..<5, using: &random) == 0 {
                // A plug pulled during start-up: opening the database, resuming, recording the play.
                usleep(UInt32.random(in: 0...300_000, using: &random))
                kill(daemon.process.processIdentifier, SIGKILL)
                killsWhileStarting += 1
            } else {
                guard daemon.waitUntilReady() else {
                    return XCTFail("the daemon did not start, \(moment): \(daemon.log.suffix(3000))")
                }
                if cycle > 0 {
                    try assertResumedAndPlaying(expected, daemon: daemon, moment)
                }
                if cycle == 0 || Bool.random(using: &random) == false {
                    let uuid = F.uuid(Int.random(in: 0..<stationCount, using: &random))
                    expected.stationInFlight.insert(uuid)
                    if try cli.run("tune", uuid).status == 0 { expected.station = uuid; expected.stationInFlight = [] }
                }
                // Writes until the plug is pulled at a random moment among them.
                let pid = daemon.process.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + Double.random(in: 0.0...0.4, using: &random)) {
                    kill(pid, SIGKILL)
                }
                while daemon.process.isRunning {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        let uuid = F.uuid(Int.random(in: 0..<stationCount, using: &random))
                        if try cli.run("fav", "add", uuid).status == 0 { expected.favorites.insert(uuid); acknowledgedWrites += 1 }
                    case 1:
                        let volume = Int.random(in: 0...100, using: &random)
                        expected.volumeInFlight.insert(volume)
                        if try cli.run("volume", "\(volume)").status == 0 {
                            expected.volume = volume
                            expected.volumeInFlight = []
                            acknowledgedWrites += 1
                        }
                    default:
                        let uuid = F.uuid(Int.random(in: 0..<stationCount, using: &random))
                        expected.stationInFlight.insert(uuid)
                        if try cli.run("tune", uuid).status == 0 {
                            expected.station = uuid
                            expected.stationInFlight = []
                            acknowledgedWrites += 1
                        }
                    }
                }
                killsWhileWriting += 1
            }
            XCTAssertNotNil(daemon.waitForExit(timeout: 10), moment)
            expected = try checkDatabase(expected, moment)
        }
        print("daemon kill loop: \(cycles) kills (\(killsWhileStarting) during start-up, \(killsWhileWriting) among writes), "
              + "\(acknowledgedWrites) acknowledged writes, \(expected.favorites.count) favorites, \(context)")
        XCTAssertGreaterThan(acknowledgedWrites, cycles / 2, "the kills must land among acknowledged writes")
    }

    /// Checks the database after a kill and returns what the next start must resume.
    private func checkDatabase(_ expected: Expectation, _ moment: String) throws -> Expectation {
        let database = try WavedialDatabase.open(path: databasePath)
        XCTAssertEqual(try database.integrityProblems(), [], moment)
        let favorites = Set(try database.favorites().map(\.stationuuid))
        XCTAssertTrue(expected.favorites.isSubset(of: favorites), "lost favorites \(expected.favorites.subtracting(favorites)), \(moment)")
        XCTAssertEqual(try database.favorites().map(\.position), (0..<favorites.count).map { $0 + 1 },
                       "positions stay dense, \(moment)")
        let state = try database.applianceState()
        XCTAssertTrue(expected.volumes.contains(state.volume), "volume \(state.volume), acknowledged \(expected.volume), \(moment)")
        XCTAssertTrue(expected.stations.contains(state.lastStation),
                      "last station \(state.lastStation ?? "none"), acknowledged \(expected.station ?? "none"), \(moment)")
        // What survived is now the truth the next start must resume.
        return Expectation(favorites: favorites, volume: state.volume, station: state.lastStation)
    }

    private func assertResumedAndPlaying(_ expected: Expectation, daemon: DaemonProcess, _ moment: String) throws {
        let follower = try StatusFollower(binary: cli.binary, environment: cli.environment)
        defer { follower.stop() }
        let deadline = Date().addingTimeInterval(15)
        while !follower.states.contains("playing") && Date() < deadline { usleep(20_000) }
        let last = follower.statuses.last ?? [:]
        XCTAssertTrue(follower.states.contains("playing"), "not playing after the restart, \(moment): \(last); \(daemon.log.suffix(2000))")
        XCTAssertEqual((last["station"] as? [String: Any])?["stationuuid"] as? String, expected.station, "resumed station, \(moment)")
        XCTAssertEqual(last["volume"] as? Int, expected.volume, "resumed volume, \(moment)")
    }
}
