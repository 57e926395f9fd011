import Foundation
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The CLI's favorites and location changes, written by the daemon: durable when the reply comes, and the
/// radio's bands follow before it.
final class DataChangeWriterTests: XCTestCase {
    private let bob = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)

    func testFavoritesAndTheLocationAreWrittenAndTheRadioFollows() throws {
        // No location yet: the nearby band is empty until one is set.
        let database = try WavedialDatabase.inMemory(with: [bob, jazz])
        let configuration = Configuration()
        let controller = RadioController(configuration: configuration, database: database, player: RecordingPlayer(),
                                         display: { _ in }, logger: Logger(label: "test"))
        controller.start(resume: false)
        defer { controller.shutdown() }
        let writer = DataChangeWriter(database: database, controller: controller, logger: Logger(label: "test"))

        XCTAssertEqual(writer.respond(to: .favoriteAdd(stationuuid: bob.stationuuid))?.added, true)
        XCTAssertEqual(writer.respond(to: .favoriteAdd(stationuuid: jazz.stationuuid))?.added, true)
        XCTAssertEqual(writer.respond(to: .favoriteAdd(stationuuid: jazz.stationuuid))?.added, false, "a favorite already")
        XCTAssertEqual(controller.dialListing().favorites.map(\.stationuuid), [bob.stationuuid, jazz.stationuuid], "the radio follows at once")
        XCTAssertEqual(writer.respond(to: .favoriteMove(stationuuid: jazz.stationuuid, position: 9))?.position, 2, "past the end: the last")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [bob.stationuuid, jazz.stationuuid])
        XCTAssertEqual(writer.respond(to: .favoriteMove(stationuuid: jazz.stationuuid, position: 1))?.position, 1)
        XCTAssertEqual(controller.dialListing().favorites.map(\.stationuuid), [jazz.stationuuid, bob.stationuuid])
        XCTAssertEqual(writer.respond(to: .favoriteRemove(stationuuid: bob.stationuuid))?.ok, true)
        XCTAssertEqual(writer.respond(to: .favoriteRemove(stationuuid: bob.stationuuid))?.error, "\(bob.stationuuid) is not a favorite")
        XCTAssertEqual(writer.respond(to: .favoriteAdd(stationuuid: "nowhere"))?.error, "no station nowhere in the catalog")
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [jazz.stationuuid])

        XCTAssertEqual(controller.dialListing().dial, [], "no location, no nearby band")
        let located = try XCTUnwrap(writer.respond(to: .locationSet(Coordinate(latitude: 52.52, longitude: 13.405))))
        XCTAssertTrue(located.ok)
        XCTAssertEqual(try database.storedLocation(), Coordinate(latitude: 52.52, longitude: 13.405))
        XCTAssertEqual(controller.dialListing().dial.map(\.stationuuid).sorted(), [bob.stationuuid, jazz.stationuuid], "the band followed")
        XCTAssertNil(writer.respond(to: .play), "not a data change")

        let part = "#EXTM3U\n#EXTINF:-1,Home\nhttp://192.168.1.5:8000/live\n" + FavoritesFile.m3u([bob])
        XCTAssertEqual(writer.respond(to: .favoritesImport(part))?.imported, 2)
        XCTAssertEqual(writer.respond(to: .favoritesImport(part))?.imported, 0, "those already there keep their place")
        XCTAssertEqual(controller.dialListing().favorites.count, 3, "jazz, and the two imported")
        XCTAssertEqual(writer.respond(to: .favoritesImport("not a playlist"))?.error,
                       "line 1 is neither a comment nor a stream URL; nothing was imported")
        XCTAssertEqual(try database.favorites().count, 3)
    }
}
