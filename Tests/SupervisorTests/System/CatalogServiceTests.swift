import Foundation
import Logging
import RadioBrowser
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The catalog service against a loopback Radio Browser: stopping it ends a sync in flight.
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
}
