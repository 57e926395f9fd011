import Foundation
import GRDB
import Logging
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import RadioBrowser

/// A hostile or broken mirror cannot fill the SD card or hold the sync for ever: a download past its
/// record count, its size after decompression or its time fails with the limit named, the old catalog
/// and the favorites stay, and nothing staged stays behind. Redirects go to HTTPS only; records
/// without a real UUID are skipped and counted. Real HTTP servers on loopback, gzip included.
final class CatalogSyncLimitsTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var servers: [RadioBrowserTestServer] = []
    private var scripted: [ScriptedHTTPServer] = []
    private var client = RadioBrowserClient()
    private let first = (0..<3).map { F.station(F.uuid($0), "First \($0)") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        client.stallTimeout = 3
        client.connectTimeout = 3
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        scripted.forEach { $0.stop() }
        directory.remove()
    }

    private func server(_ body: Data, mode: RadioBrowserTestServer.Mode = .ok) throws -> RadioBrowserTestServer {
        let server = try RadioBrowserTestServer(stations: body, mode: mode, directory: directory)
        servers.append(server)
        return server
    }

    private func sync(_ database: WavedialDatabase, _ urls: [String], limits: CatalogSync.Limits = .init(),
                      client: RadioBrowserClient? = nil) throws -> CatalogSyncSummary {
        // A backstop only: a sync the limits do not end is stopped after 40 s and fails the test as cancelled.
        let giveUp = Date().addingTimeInterval(40)
        return try CatalogSync(database: database, servers: urls, client: client ?? self.client, limits: limits,
                               logger: Logger(label: "test")).run(shouldContinue: { Date() < giveUp })
    }

    /// A database with `first` synced and two favorites, on disk (the staging file lies beside it).
    private func catalogWithFavorites() throws -> WavedialDatabase {
        let database = try WavedialDatabase.open(path: directory.path("db/wavedial.sqlite"))
        _ = try sync(database, [try server(F.radioBrowserJSON(first)).baseURL])
        try database.addFavorite(first[0])
        try database.addFavorite(first[2])
        return database
    }

    private func assertKept(_ database: WavedialDatabase, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try database.stationCount(), first.count, "the old catalog stays", file: file, line: line)
        XCTAssertEqual(try database.station(uuid: first[1].stationuuid)?.name, "First 1", file: file, line: line)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [first[0].stationuuid, first[2].stationuuid],
                       "the favorites stay", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: CatalogImport.stagingPath(for: directory.path("db/wavedial.sqlite"))),
                       "nothing staged stays behind", file: file, line: line)
    }

    private func assertFails(_ body: @autoclosure () throws -> CatalogSyncSummary, saying words: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(words), "\(error)", file: file, line: line)
        }
    }

    func testMoreRecordsThanTheLimitFailTheServerAndKeepTheCatalogAndFavorites() throws {
        let database = try catalogWithFavorites()
        let many = try server(F.radioBrowserJSON((0..<50).map { F.station(F.uuid(100 + $0), "Many \($0)") }))
        assertFails(try sync(database, [many.baseURL], limits: .init(maximumStations: 20)),
                    saying: "\(many.baseURL): the download holds more than 20 stations (the limit); the catalog was kept")
        try assertKept(database)
        XCTAssertEqual(try sync(database, [many.baseURL], limits: .init(maximumStations: 50)).total, 50, "at the limit it passes")
    }

    /// 8 MB of JSON that gzip makes a few kilobytes of (white space between records): the limit counts
    /// what the decompression gives, not what came over the wire.
    func testABodyLargerThanTheLimitOnceDecompressedFails() throws {
        let database = try catalogWithFavorites()
        let records = try F.radioBrowserJSON((0..<10).map { F.station(F.uuid(200 + $0), "Bomb \($0)") })
        var body = Data("[".utf8) + Data(repeating: 0x20, count: 8 << 20)
        body += records.dropFirst()
        let bomb = try server(body)
        assertFails(try sync(database, [bomb.baseURL], limits: .init(maximumBytes: 1 << 20)),
                    saying: "\(bomb.baseURL): the download is larger than 1048576 bytes (the limit); the catalog was kept")
        XCTAssertTrue(bomb.requests().first?.acceptEncoding.contains("gzip") == true)
        try assertKept(database)
    }

    /// A mirror that trickles a few bytes a second never stalls; the time limit ends it, and the
    /// low-speed limit ends it sooner.
    func testATrickleIsEndedByTheTimeLimitAndByTheLowSpeedLimit() throws {
        let database = try catalogWithFavorites()
        let trickle = try server(F.radioBrowserJSON(first), mode: .trickle)
        var patient = client
        patient.stallTimeout = 60
        patient.lowSpeedLimit = 1
        assertFails(try sync(database, [trickle.baseURL], limits: .init(maximumSeconds: 2), client: patient),
                    saying: "\(trickle.baseURL): timed out")
        try assertKept(database)

        var quick = client
        quick.stallTimeout = 2
        assertFails(try sync(database, [trickle.baseURL], client: quick), saying: "\(trickle.baseURL): timed out")
        try assertKept(database)
    }

    /// The configured server is plain HTTP (allowed: configured so); its redirects to plain HTTP, FTP
    /// or a file are refused, and the redirect's target never sees a connection.
    func testRedirectsLeadToHTTPSOnly() throws {
        let database = try catalogWithFavorites()
        let elsewhere = try ScriptedHTTPServer()
        scripted.append(elsewhere)
        elsewhere.route("/json/stations", .content(String(decoding: try F.radioBrowserJSON(first), as: UTF8.self), type: "application/json"))
        for target in ["http://127.0.0.1:\(elsewhere.port)/json/stations", "ftp://127.0.0.1:\(elsewhere.port)/stations.json",
                       "file:///etc/passwd", "gopher://127.0.0.1:\(elsewhere.port)/"] {
            let redirecting = try ScriptedHTTPServer()
            scripted.append(redirecting)
            redirecting.route("/json/stations", .redirect(to: target))
            let base = "http://127.0.0.1:\(redirecting.port)"
            assertFails(try sync(database, [base]), saying: "\(base): redirected to a protocol other than https")
            XCTAssertEqual(redirecting.requestedPaths, ["/json/stations"], target)
        }
        XCTAssertEqual(elsewhere.connections, 0)
        try assertKept(database)
        XCTAssertEqual(try sync(database, ["http://127.0.0.1:\(elsewhere.port)"]).total, first.count,
                       "the same server configured as http:// itself is used")
    }

    func testRecordsWithoutAUUIDAreSkippedAndCounted() throws {
        let database = try WavedialDatabase.inMemory()
        let good = (0..<4).map { F.station(F.uuid(300 + $0), "Good \($0)") }
        var objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: F.radioBrowserJSON(good)) as? [[String: Any]])
        for (index, uuid) in ["keep", "", "960c5a4c060111e8ae9752543be04c81", "../etc/passwd", "960c5a4c-0601-11e8-ae97-52543be04c8z"]
            .enumerated() {
            var record = objects[0]
            record["stationuuid"] = uuid
            record["name"] = "Bad \(index)"
            objects.append(record)
        }
        let summary = try sync(database, [try server(try JSONSerialization.data(withJSONObject: objects)).baseURL])
        XCTAssertEqual(summary.total, 4)
        XCTAssertEqual(summary.skipped, 5)
        XCTAssertEqual(try database.search(.init(text: "bad")), [])
    }

    /// What a download staged lives in a file beside the catalog that is gone after the sync, and the
    /// catalog file holds no free pages from it; the catalog file itself still holds every station.
    func testTheStagingIsRemovedAfterTheSync() throws {
        let path = directory.path("db/wavedial.sqlite")
        let database = try WavedialDatabase.open(path: path)
        let stations = F.generated(count: 3000)
        _ = try sync(database, [try server(F.radioBrowserJSON(stations)).baseURL])
        XCTAssertFalse(FileManager.default.fileExists(atPath: CatalogImport.stagingPath(for: path)))
        let queue = try DatabaseQueue(path: path)
        let (pages, free, stagingTables) = try queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_count")!, try Int.fetchOne(db, sql: "PRAGMA freelist_count")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'stationImport%'")!)
        }
        XCTAssertEqual(stagingTables, 0, "no staging table in the catalog")
        XCTAssertLessThan(free * 20, pages, "free pages: \(free) of \(pages)")
        XCTAssertEqual(try database.stationCount(), 3000)
    }
}
