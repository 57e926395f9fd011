import Audio
import Foundation
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The pages of a station's set-up are handed back once per station that has played a while.
final class SettledPageReleaseTests: XCTestCase {
    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)
    private let talk = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000003", "Talk 94.5", lat: 52.51, lon: 13.39)

    func testReleasesOnceAStationHasPlayedAndOncePerStation() throws {
        let database = try WavedialDatabase.inMemory(with: [jazz, talk])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        let player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        let controller = RadioController(configuration: configuration, database: database, player: player,
                                         display: { _ in }, monotonic: { 1_000_000_000 }, logger: Logger(label: "test"))
        controller.start(resume: false)
        let releases = Box(0)
        let release = SettledPageRelease(following: controller, delaySeconds: 2, logger: Logger(label: "test")) {
            releases.update { $0 += 1 }
            return 1
        }
        release.start()
        defer { _ = release.stop(waitingUpTo: 1) }
        func play(_ station: Station) {
            _ = controller.perform(.tune(station.name))
            player.report(PlayerStatus(state: .playing, station: player.status.station, title: nil, streamName: nil))
        }

        play(jazz)
        XCTAssertTrue(eventually(timeout: 10) { releases.value == 1 }, "released once Jazz played a while")
        player.report(PlayerStatus(state: .playing, station: player.status.station, title: "a new song", streamName: nil))
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(releases.value, 1, "the same station playing on: nothing more")

        // A station left before it played the while: nothing for it.
        play(talk)
        _ = controller.perform(.pause)
        player.report(PlayerStatus(state: .paused, station: player.status.station, title: nil, streamName: nil))
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(releases.value, 1, "Talk was paused before it had played 2 s")

        play(talk)
        XCTAssertTrue(eventually(timeout: 10) { releases.value == 2 }, "released again for Talk")
    }
}
