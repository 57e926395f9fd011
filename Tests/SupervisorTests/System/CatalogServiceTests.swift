import CurlSupport
import Foundation
import Logging
import RadioBrowser
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The catalog service against a loopback Radio Browser: stopping it ends a sync in flight; a network that
/// appears cuts a failed sync's back-off short.
final class CatalogServiceTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let stations = [StationFixtures.station(StationFixtures.uuid(7001), "New")]
        catalog = try RadioBrowserTestServer(stations: StationFixtures.radioBrowserJSON(stations), mode: .hang, directory: directory)
    }

    override func tearDown() {
        catalog.stop()
        directory.remove()
    }

    func testStopCancelsTheSyncInFlightWaitsForItsThreadAndRefusesNewOnes() throws {
        let database = try WavedialDatabase.inMemory()
        var settings = CatalogSettings()
        settings.servers = [catalog.baseURL]
        let notices = Box<[String?]>([])
        let service = CatalogService(database: database, settings: settings, logger: Logger(label: "test"),
                                     onNotice: { text in notices.update { $0.append(text) } }, onSynced: {})
        // An empty catalog syncs at start; the server sends headers, then nothing (its stall timeout is 20 s).
        service.start()
        let deadline = Date().addingTimeInterval(10)
        while catalog.requests().isEmpty && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(catalog.requests().count, 1, "the sync is in flight")
        XCTAssertTrue(service.stop(waitingUpTo: 10), "wd-sync ended")
        XCTAssertThrowsError(try service.syncNow()) { error in
            guard case RadioBrowserError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(catalog.requests().count, 1, "no sync after the stop")
        XCTAssertEqual(try database.stationCount(), 0)
        XCTAssertFalse(notices.value.contains("Catalog offline"), "a stop is not a failure: \(notices.value)")
    }

    func testANetworkChangeRetriesAFailedSyncAtOnceInsteadOfAfterItsBackOff() throws {
        catalog.stop()
        let stations = [StationFixtures.station(StationFixtures.uuid(7002), "Later")]
        catalog = try RadioBrowserTestServer(stations: StationFixtures.radioBrowserJSON(stations), mode: .error, directory: directory)
        let database = try WavedialDatabase.inMemory()
        var settings = CatalogSettings()
        settings.servers = [catalog.baseURL]
        let service = CatalogService(database: database, settings: settings, logger: Logger(label: "test"),
                                     onNotice: { _ in }, onSynced: {})
        defer { _ = service.stop(waitingUpTo: 10) }
        // The first sync (at start: the catalog is empty) fails; the next would come after 30 s.
        service.start()
        var deadline = Date().addingTimeInterval(10)
        while catalog.requests().isEmpty && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(catalog.requests().isEmpty, "the first sync")
        usleep(500_000)
        let firstSync = catalog.requests().count
        usleep(500_000)
        XCTAssertEqual(catalog.requests().count, firstSync, "no retry before its back-off")
        service.networkChanged()
        deadline = Date().addingTimeInterval(20)
        while catalog.requests().count == firstSync && Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThan(catalog.requests().count, firstSync, "retried once the network changed, not 30 s later")
    }

    func testWithoutAnAddressASyncFailureSaysNoNetwork() {
        let failure = RadioBrowserError.server("http://198.18.0.2:8080", reason: "Failed to connect: Could not connect to server")
        let unconnected = ["127.0.0.1", "::1", "fe80::5054:ff:fe12:3456"].compactMap(IPAddress.init)
        XCTAssertEqual(unconnected.count, 3)
        XCTAssertEqual(CatalogService.words(for: failure, addresses: unconnected), "No network")
        XCTAssertEqual(CatalogService.words(for: failure, addresses: []), "No network")
        let connected = unconnected + ["198.18.0.15", "198.18.0.255"].compactMap(IPAddress.init)
        XCTAssertEqual(CatalogService.words(for: failure, addresses: connected), "Catalog offline")
        XCTAssertEqual(CatalogService.words(for: RadioBrowserError.noServers, addresses: connected), "No network",
                       "\(RadioBrowserError.noServers)")
    }
}
