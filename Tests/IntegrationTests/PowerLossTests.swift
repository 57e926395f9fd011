import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// A pulled plug, as far as a process can tell: SIGKILL at random moments during favorite
/// writes and catalog syncs. The database must stay sound and keep everything acknowledged.
///
/// `WAVEDIAL_CLI_KILL_CYCLES` sets the rounds of the mixed loop (CI: 200; a long run can do
/// thousands); `WAVEDIAL_STRESS_SEED` replays its random moments (printed on failure).
final class PowerLossTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var configPath: String!
    private var databasePath: String { directory.path("db/wavedial.sqlite") }
    private let binary = ProjectPaths.product("wavedial")
    private var random = SeededRandom(seed: 2026)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let stations = (0..<3000).map { F.station(F.uuid($0), "Station \($0)", lat: 50 + Double($0 % 100) / 10, lon: 8) }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        configPath = directory.path("config.toml")
        try """
            [catalog]
            database = "\(databasePath)"
            servers = ["\(catalog.baseURL)"]
            [control]
            socket = "\(directory.path("none.sock"))"
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        XCTAssertEqual(run(["sync"]).status, 0)
    }

    override func tearDown() {
        catalog.stop()
        directory.remove()
    }

    /// Runs the CLI; kills it with SIGKILL after `killAfter` seconds when given.
    private func run(_ arguments: [String], killAfter: Double? = nil) -> (status: Int32, killed: Bool) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--config", configPath] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, false) }
        var killed = false
        if let killAfter {
            usleep(UInt32(killAfter * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        let exit = process.waitForExit()
        return (exit?.status ?? -1, killed && exit == .signaled(SIGKILL))
    }

    func testKilledFavoriteWritesNeverLoseAnAcknowledgedOne() throws {
        var acknowledged: Set<String> = []
        var kills = 0
        for round in 0..<120 {
            let uuid = F.uuid(round)
            // Every other write runs to the end; the rest are killed somewhere along the way.
            let result = run(["fav", "add", uuid], killAfter: round % 2 == 0 ? Double.random(in: 0.0...0.05, using: &random) : nil)
            if result.killed { kills += 1 } else if result.status == 0 { acknowledged.insert(uuid) }
            if round % 40 == 39 {
                let database = try WavedialDatabase.open(path: databasePath)
                XCTAssertEqual(try database.integrityProblems(), [])
            }
        }
        XCTAssertGreaterThan(kills, 0, "the kills must land while the CLI works")
        XCTAssertGreaterThanOrEqual(acknowledged.count, 60)
        let database = try WavedialDatabase.open(path: databasePath)
        XCTAssertEqual(try database.integrityProblems(), [])
        let favorites = Set(try database.favorites().map(\.stationuuid))
        XCTAssertTrue(acknowledged.isSubset(of: favorites), "lost: \(acknowledged.subtracting(favorites))")
        XCTAssertEqual(try database.favorites().map(\.position), Array(1...favorites.count), "positions stay dense")
    }

    func testKilledSyncsLeaveTheOldOrTheNewCatalogWhole() throws {
        let database = try WavedialDatabase.open(path: databasePath)
        try database.addFavorite(try XCTUnwrap(database.station(uuid: F.uuid(7))))
        var kills = 0
        for _ in 0..<25 {
            let result = run(["sync"], killAfter: Double.random(in: 0.02...0.6, using: &random))
            if result.killed { kills += 1 }
            let reopened = try WavedialDatabase.open(path: databasePath)
            XCTAssertEqual(try reopened.integrityProblems(), [])
            XCTAssertEqual(try reopened.stationCount(), 3000, "never a half catalog")
            XCTAssertEqual(try reopened.favorites().map(\.stationuuid), [F.uuid(7)])
            XCTAssertEqual(try reopened.search(StationQuery(text: "Station 2999")).first?.stationuuid, F.uuid(2999),
                           "the search index matches the catalog")
        }
        XCTAssertGreaterThan(kills, 0)
        XCTAssertEqual(run(["sync"]).status, 0, "a sync after all that still works")
    }

    /// Hundreds of rounds of syncs and favorite writes (add, remove, move), each killed at a
    /// random moment or left to finish, checked after every round.
    func testKillsAmongSyncsAndFavoriteWritesInALoop() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["WAVEDIAL_CLI_KILL_CYCLES"] ?? "") ?? 200
        let seed = UInt64(ProcessInfo.processInfo.environment["WAVEDIAL_STRESS_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        random = SeededRandom(seed: seed)
        let context = "seed \(seed) (rerun with WAVEDIAL_STRESS_SEED=\(seed))"
        var present: Set<String> = [], absent: Set<String> = [], kills = 0, acknowledged = 0
        for round in 0..<rounds {
            let moment = "round \(round), \(context)"
            let uuid = F.uuid(Int.random(in: 0..<40, using: &random))
            let kill = Bool.random(using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                let result = run(["sync"], killAfter: kill ? Double.random(in: 0.02...0.6, using: &random) : nil)
                if result.killed { kills += 1 } else { XCTAssertEqual(result.status, 0, moment) }
            case 1...4:
                let result = run(["fav", "add", uuid], killAfter: kill ? Double.random(in: 0.0...0.05, using: &random) : nil)
                present.remove(uuid); absent.remove(uuid)
                if result.killed { kills += 1 } else if result.status == 0 { present.insert(uuid); acknowledged += 1 }
            case 5...7:
                let result = run(["fav", "remove", uuid], killAfter: kill ? Double.random(in: 0.0...0.05, using: &random) : nil)
                present.remove(uuid); absent.remove(uuid)
                if result.killed { kills += 1 } else if result.status == 0 { absent.insert(uuid); acknowledged += 1 }
            default:
                let position = Int.random(in: 1...5, using: &random)
                let result = run(["fav", "move", uuid, "\(position)"],
                                 killAfter: kill ? Double.random(in: 0.0...0.05, using: &random) : nil)
                if result.killed { kills += 1 }
            }
            let database = try WavedialDatabase.open(path: databasePath)
            XCTAssertEqual(try database.integrityProblems(), [], moment)
            XCTAssertEqual(try database.stationCount(), 3000, "never a half catalog, \(moment)")
            let favorites = try database.favorites()
            let uuids = Set(favorites.map(\.stationuuid))
            XCTAssertTrue(present.isSubset(of: uuids), "lost: \(present.subtracting(uuids)), \(moment)")
            XCTAssertTrue(absent.isDisjoint(with: uuids), "came back: \(absent.intersection(uuids)), \(moment)")
            XCTAssertEqual(favorites.map(\.position), (0..<favorites.count).map { $0 + 1 }, "positions stay dense, \(moment)")
            // What survived the kill is the truth from here on.
            present = uuids
            absent = Set((0..<40).map { F.uuid($0) }).subtracting(uuids)
        }
        print("CLI kill loop: \(rounds) rounds, \(kills) kills, \(acknowledged) acknowledged favorite writes, \(context)")
        XCTAssertGreaterThan(kills, rounds / 4, "the kills must land while the CLI works")
        XCTAssertEqual(run(["sync"]).status, 0, "a sync after all that still works")
    }
}
