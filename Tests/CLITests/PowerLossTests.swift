import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// A pulled plug, as far as a process can tell: SIGKILL at random moments during favorite
/// writes and catalog syncs. The database must stay sound and keep everything acknowledged.
final class PowerLossTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var configPath: String!
    private var databasePath: String { directory.path("db/wavedial.sqlite") }
    private let binary = ProjectPaths.product("wavedial", besides: Bundle(for: BundleMarker.self))
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
        process.waitUntilExit()
        return (process.terminationStatus, killed && process.terminationReason == .uncaughtSignal)
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
}
