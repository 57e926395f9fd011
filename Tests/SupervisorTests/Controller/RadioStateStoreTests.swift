import Audio
import Foundation
import GRDB
import Hardware
import Logging
import WavedialConfig
import WavedialControl
import WavedialTestSupport
import XCTest

@testable import Supervisor
@testable import WavedialCore

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

    /// Every later write of the appliance state fails, as on a full or broken disk (a trigger refuses the row).
    private func refuseApplianceStateWrites() throws {
        try database.writer.write { db in
            for event in ["INSERT", "UPDATE"] {
                try db.execute(sql: """
                    CREATE TRIGGER refuse_state_\(event.lowercased()) BEFORE \(event) ON setting WHEN NEW.key = 'appliance.state'
                    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
            }
        }
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
        let store = RadioStateStore(database: database, stored: ApplianceState(), logger: Logger(label: "test"))
        let release = hold(store)
        var state = ApplianceState()
        for volume in 1...50 {
            state.volume = volume
            store.save(state)
        }
        store.recordPlay(of: bob, at: Date(timeIntervalSince1970: 1_800_000_000))
        let last = store.recordPlay(of: jazz, at: Date(timeIntervalSince1970: 1_800_000_060))
        XCTAssertEqual(store.outcome(after: 0, upTo: last, timeout: 0.2), .timedOut, "nothing is written while the thread is held")
        XCTAssertEqual(try database.applianceState().volume, ApplianceState().volume)
        release.signal()
        XCTAssertEqual(store.outcome(after: 0, upTo: last, timeout: 5), .written)
        XCTAssertEqual(store.confirmedState.volume, 50)
        XCTAssertEqual(try database.applianceState().volume, 50)
        XCTAssertEqual(try database.playHistory().map(\.stationuuid), [jazz.stationuuid, bob.stationuuid], "newest first")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [jazz.stationuuid])
    }

    /// The knob turns and snaps, and the status answers, while the store cannot write; a control request's
    /// reply waits for its write, so what it acknowledges is on the disk.
    func testTheKnobNeverWaitsForTheDiskButAControlReplyWaitsForItsWrite() throws {
        var configuration = WavedialConfig.Configuration()
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

    /// A write that fails is not acknowledged: only the tickets of the failed part say so, and the state the
    /// database holds stays the one the radio goes back to.
    func testAFailedWriteIsReportedForItsTicketsOnly() throws {
        var onDisk = ApplianceState()
        onDisk.volume = 25
        try database.saveApplianceState(onDisk)
        let store = RadioStateStore(database: database, stored: onDisk, logger: Logger(label: "test"))
        let played = store.recordPlay(of: bob, at: Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertEqual(store.outcome(after: 0, upTo: played, timeout: 5), .written)
        try refuseApplianceStateWrites()
        var next = onDisk
        next.volume = 40
        let saved = store.save(next)
        guard case .failed(let reason) = store.outcome(after: played, upTo: saved, timeout: 5) else {
            return XCTFail("a failed write acknowledged")
        }
        XCTAssertTrue(reason.hasPrefix("state not saved: "), reason)
        XCTAssertEqual(store.confirmedState.volume, 25, "still what the disk holds")
        let song = store.recordSongs([SongHistoryEntry(stationuuid: bob.stationuuid, stationName: bob.name, title: "A Song",
                                                       heardAt: Date(timeIntervalSince1970: 1_800_000_100))])
        XCTAssertEqual(store.outcome(after: saved, upTo: song, timeout: 5), .written, "the songs' own write went through")
        XCTAssertEqual(store.outcome(after: 0, upTo: song, timeout: 5), .failed(reason), "a range holding the failure fails")
    }

    /// A control command whose write fails answers a database failure, and the radio's volume is the disk's again.
    func testAControlReplyWhoseWriteFailedIsAnErrorAndTheVolumeIsTheDisks() throws {
        var onDisk = ApplianceState()
        onDisk.volume = 25
        try database.saveApplianceState(onDisk)
        let player = RecordingPlayer()
        let controller = RadioController(configuration: WavedialConfig.Configuration(), database: database, player: player,
                                         display: { _ in }, logger: Logger(label: "test"))
        controller.start(resume: false)
        defer { controller.shutdown() }
        try refuseApplianceStateWrites()
        let response = controller.perform(.volume(60))
        XCTAssertFalse(response.ok)
        XCTAssertEqual(response.errorKind, .database)
        XCTAssertTrue(response.error?.hasPrefix("volume: state not saved: ") == true, response.error ?? "")
        XCTAssertEqual(controller.status.volume, 25, "back to what the disk holds")
        XCTAssertEqual(player.volume, 0.25, accuracy: 0.001)
    }
}
