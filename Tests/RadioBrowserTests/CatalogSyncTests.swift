import Logging
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import RadioBrowser

final class CatalogSyncTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var servers: [RadioBrowserTestServer] = []
    private var client = RadioBrowserClient()
    /// A station of the first sync that later ones must not lose.
    private let keep = "0000cafe-0000-4000-8000-000000000001"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        client.stallTimeout = 2
        client.connectTimeout = 3
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        directory.remove()
    }

    private func server(_ stations: [Station], mode: RadioBrowserTestServer.Mode = .ok) throws -> RadioBrowserTestServer {
        let server = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), mode: mode, directory: directory)
        servers.append(server)
        return server
    }

    private func sync(_ database: WavedialDatabase, _ urls: [String]) throws -> CatalogSyncSummary {
        try CatalogSync(database: database, servers: urls, client: client, logger: Logger(label: "test")).run()
    }

    func testFullSyncStreamsTheCatalogWithGzipAndOurUserAgent() throws {
        let stations = F.generated(count: 2500)
        let server = try server(stations)
        let database = try WavedialDatabase.inMemory()
        var progress: [Int] = []
        let summary = try CatalogSync(database: database, servers: [server.baseURL + "/"], client: client,
                                      logger: Logger(label: "test")).run { progress.append($0.stations) }
        XCTAssertEqual(summary.total, 2500)
        XCTAssertEqual(summary.added, 2500)
        XCTAssertEqual(summary.playable, stations.filter(\.isPlayable).count)
        XCTAssertEqual(summary.server, server.baseURL)
        XCTAssertEqual(progress, [1000, 2000, 2500])
        XCTAssertEqual(try database.station(uuid: stations[42].stationuuid), stations[42])
        let request = try XCTUnwrap(server.requests().first)
        XCTAssertEqual(request.path, "/json/stations?hidebroken=false")
        XCTAssertEqual(request.userAgent, "wavedial/\(WavedialVersion.current)")
        XCTAssertTrue(request.acceptEncoding.contains("gzip"), request.acceptEncoding)
    }

    func testResyncWithChangedAndVanishedStationsKeepsFrequenciesAndFavorites() throws {
        let here = Coordinate(latitude: 50, longitude: 8)
        let before = (0..<30).map { F.station(F.uuid($0), "Station \($0)", lat: 50 + Double($0) * 0.02, lon: 8) }
        let database = try WavedialDatabase.inMemory()
        _ = try sync(database, [try server(before).baseURL])
        var settings = DialSettings()
        settings.stations = 20
        let band = try database.nearbyBand(location: here, countryCode: "DE", settings: settings).band
        try database.addFavorite(before[0])
        try database.addFavorite(before[25])

        var after = before.filter { $0.stationuuid != F.uuid(0) && $0.stationuuid != F.uuid(5) }
        after[3].name = "Renamed"
        let summary = try sync(database, [try server(after).baseURL])
        XCTAssertEqual(summary.removed, 2)
        XCTAssertEqual(summary.updated, 1)
        XCTAssertEqual(summary.added, 0)

        let rebuilt = try database.nearbyBand(location: here, countryCode: "DE", settings: settings).band
        for entry in band.entries where rebuilt.frequency(of: entry.stationuuid) != nil {
            XCTAssertEqual(rebuilt.frequency(of: entry.stationuuid), entry.kHz)
        }
        XCTAssertEqual(rebuilt.entries.count, 20)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [F.uuid(0), F.uuid(25)], "a vanished favorite stays")
    }

    func testFailsOverFromRefusingErroringHangingAndMalformedServers() throws {
        let good = (0..<50).map { F.station(F.uuid($0), "Good \($0)") }
        let refused = "http://127.0.0.1:\(freeLoopbackPort())"
        let failing = try [
            server(good, mode: .error).baseURL, server(good, mode: .malformed).baseURL,
            server(good, mode: .truncated).baseURL, server(good, mode: .notarray).baseURL, server(good, mode: .hang).baseURL,
        ]
        let working = try server(good)
        let database = try WavedialDatabase.inMemory()
        let summary = try sync(database, [refused] + failing + [working.baseURL])
        XCTAssertEqual(summary.server, working.baseURL)
        XCTAssertEqual(summary.total, 50)
        XCTAssertEqual(try database.stationCount(), 50)
    }

    func testAStoppedSyncEndsAsCancelledTriesNoOtherServerAndKeepsTheCatalog() throws {
        let database = try WavedialDatabase.inMemory()
        _ = try sync(database, [try server([F.station(keep, "Keep me")]).baseURL])
        let hanging = try server([F.station(F.uuid(7000), "New")], mode: .hang)
        let next = try server([F.station(F.uuid(7000), "New")])
        var patient = client
        patient.stallTimeout = 60  // only the stop can end the hanging transfer
        let stopAt = Date().addingTimeInterval(0.3)
        let sync = CatalogSync(database: database, servers: [hanging.baseURL, next.baseURL], client: patient, logger: Logger(label: "test"))
        XCTAssertThrowsError(try sync.run(shouldContinue: { Date() < stopAt })) { error in
            guard case RadioBrowserError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(hanging.requests().count, 1)
        XCTAssertTrue(next.requests().isEmpty, "no server is tried after the stop")
        XCTAssertEqual(try database.stationCount(), 1)
        XCTAssertNotNil(try database.station(uuid: keep))
    }

    func testWhenAllServersFailTheCatalogIsKeptAndEachFailureIsNamed() throws {
        let database = try WavedialDatabase.inMemory()
        _ = try sync(database, [try server([F.station(keep, "Keep me")]).baseURL])
        let refused = "http://127.0.0.1:\(freeLoopbackPort())"
        let erroring = try server([F.station(F.uuid(7000), "New")], mode: .error).baseURL
        let malformed = try server((0..<600).map { F.station(F.uuid($0), "M \($0)") }, mode: .malformed).baseURL
        XCTAssertThrowsError(try sync(database, [refused, erroring, malformed])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("all 3 Radio Browser servers failed"), text)
            XCTAssertTrue(text.contains("\(refused): connection refused"), text)
            XCTAssertTrue(text.contains("\(erroring): HTTP 500"), text)
            XCTAssertTrue(text.contains("\(malformed): malformed JSON"), text)
        }
        XCTAssertEqual(try database.stationCount(), 1)
        XCTAssertEqual(try database.station(uuid: keep)?.name, "Keep me")
    }

    func testAnEmptyCatalogDownloadDoesNotWipeTheCatalog() throws {
        let database = try WavedialDatabase.inMemory()
        _ = try sync(database, [try server([F.station(keep, "Keep me")]).baseURL])
        XCTAssertThrowsError(try sync(database, [try server([]).baseURL])) { error in
            XCTAssertTrue("\(error)".contains("no stations"), "\(error)")
        }
        XCTAssertEqual(try database.stationCount(), 1)
    }

    func testClicksAreReported() throws {
        let server = try server([F.station(keep, "A")])
        try client.reportClick(server: server.baseURL, stationuuid: keep)
        XCTAssertEqual(server.requests().map(\.path), ["/json/url/\(keep)"])
    }
}

