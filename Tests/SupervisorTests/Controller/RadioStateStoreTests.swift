import Audio
import Foundation
import Hardware
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The controller's writes go through the store's own thread: the knob never waits for the disk, a burst of
/// states is written as its latest, and a control reply waits until what it changed is written.
final class RadioStateStoreTests: XCTestCase {
    private let bob = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)
    private var database: WavedialDatabase!

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [bob, jazz])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
    }

    /// Holds the store's thread (as a slow SD card's fsync would) until the returned semaphore is signalled.
    private func hold(_ store: RadioStateStore) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        store.change(RadioStateStore.FavoriteChange(station: jazz, typed: false, add: true) { _ in
            holding.signal()
            release.wait()
        })
        XCTAssertEqual(holding.wait(timeout: .now() + 5), .success, "the store's thread is held")
        return release
    }

    func testABurstIsWrittenAsItsLatestStateAndHistoriesInOrder() throws {
        let store = RadioStateStore(database: database, logger: Logger(label: "test"))
        let release = hold(store)
        var state = ApplianceState()
        for volume in 1...50 {
            state.volume = volume
            store.save(state)
        }
        store.recordPlay(of: bob, at: Date(timeIntervalSince1970: 1_800_000_000))
        let last = store.recordPlay(of: jazz, at: Date(timeIntervalSince1970: 1_800_000_060))
        XCTAssertFalse(store.waitUntilWritten(last, timeout: 0.2), "nothing is written while the thread is held")
        XCTAssertEqual(try database.applianceState().volume, ApplianceState().volume)
        release.signal()
        XCTAssertTrue(store.waitUntilWritten(last, timeout: 5))
        XCTAssertEqual(try database.applianceState().volume, 50)
        XCTAssertEqual(try database.playHistory().map(\.stationuuid), [jazz.stationuuid, bob.stationuuid], "newest first")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [jazz.stationuuid])
    }

    /// The knob turns and snaps, and the status answers, while the store cannot write; a control request's
    /// reply waits for its write, so what it acknowledges is on the disk.
    func testTheKnobNeverWaitsForTheDiskButAControlReplyWaitsForItsWrite() throws {
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        let clock = Box<UInt64>(1_000_000_000)
        let controller = RadioController(configuration: configuration, database: database, player: RecordingPlayer(),
                                         display: { _ in }, monotonic: { clock.value }, logger: Logger(label: "test"))
        controller.start(resume: false)
        let release = hold(controller.store)

        let turned = expectation(description: "the knob turned and snapped while the store was held")
        DispatchQueue.global().async {
            controller.handle(InputEvent(.detent(delta: 30), at: clock.value))
            clock.update { $0 += 2_000_000_000 }
            controller.tick(at: clock.value)
            XCTAssertNotNil(controller.status.station, "the rest tuned a station")
            turned.fulfill()
        }
        wait(for: [turned], timeout: 5)
        let tuned = try XCTUnwrap(controller.status.station?.stationuuid)
        XCTAssertNil(try database.applianceState().lastStation, "not written yet")

        let replied = Box(false)
        let reply = expectation(description: "the volume's reply")
        DispatchQueue.global().async {
            let response = controller.perform(.volume(30))
            replied.update { $0 = true }
            XCTAssertTrue(response.ok)
            reply.fulfill()
        }
        usleep(300_000)
        XCTAssertFalse(replied.value, "no reply before the write")
        release.signal()
        wait(for: [reply], timeout: 5)
        XCTAssertEqual(try database.applianceState().volume, 30, "acknowledged: written")
        XCTAssertEqual(try database.applianceState().lastStation, tuned)
        controller.shutdown()
    }
}
