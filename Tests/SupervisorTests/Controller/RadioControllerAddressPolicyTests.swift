import Audio
import CurlSupport
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// Which address policy the controller plays a station under: the catalog's for every station that came
/// from the catalog (favorites taken from it included, also once the catalog dropped them), the user's
/// for a favorite imported with a URL the catalog does not have.
final class RadioControllerAddressPolicyTests: XCTestCase {
    private typealias F = StationFixtures
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!

    private let bob = F.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private let jazz = F.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [bob, jazz])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        controller = RadioController(configuration: configuration, database: database, player: player, display: { _ in },
                                     monotonic: { 1_000_000_000 }, logger: Logger(label: "test"))
        controller.start(resume: false)
    }

    override func tearDown() {
        controller.shutdown()
    }

    /// Tunes the favorites band's only station (`band` switches from the nearby band to it).
    private func tuneTheOnlyFavorite(switchingBand: Bool = true) throws -> PlayableStation {
        if switchingBand { XCTAssertTrue(controller.perform(.band).ok) }
        XCTAssertTrue(controller.perform(.tune("100.0")).ok)
        return try XCTUnwrap(player.stations.last)
    }

    func testACatalogStationPlaysUnderTheCatalogPolicy() throws {
        XCTAssertTrue(controller.perform(.tune(bob.stationuuid)).ok)
        XCTAssertEqual(player.stations.last?.url, bob.url)
        XCTAssertEqual(player.stations.last?.addressPolicy, .catalog)
    }

    func testAnImportedFavoriteWithItsOwnURLPlaysUnderTheUserTypedPolicy() throws {
        let home = Station(stationuuid: "0f0f0f0f-0000-4000-8000-000000000001", name: "Home Icecast", url: "http://192.168.1.20:8000/live")
        XCTAssertEqual(try database.importFavorites([.station(home)]), 1)
        controller.reload()
        let played = try tuneTheOnlyFavorite()
        XCTAssertEqual(played.url, home.url)
        XCTAssertEqual(played.addressPolicy, .userTyped)
    }

    /// An import naming a catalog station's uuid with a LAN URL gets the catalog's record, and its policy;
    /// a favorite taken from the catalog keeps the catalog's policy after the catalog dropped it.
    func testAFavoriteFromTheCatalogKeepsTheCatalogPolicy() throws {
        var forged = bob
        forged.url = "http://192.168.1.1/admin"
        XCTAssertEqual(try database.importFavorites([.station(forged)]), 1)
        controller.reload()
        var played = try tuneTheOnlyFavorite()
        XCTAssertEqual(played.url, bob.url)
        XCTAssertEqual(played.addressPolicy, .catalog)

        try database.sync([jazz])
        controller.reload()
        played = try tuneTheOnlyFavorite(switchingBand: false)
        XCTAssertEqual(played.id, bob.stationuuid)
        XCTAssertEqual(played.addressPolicy, .catalog)
    }

    /// A sync that brings a catalog record with a typed favorite's uuid does not put its URL into the favorite.
    func testASyncDoesNotReplaceWhatTheUserTyped() throws {
        let home = Station(stationuuid: "0f0f0f0f-0000-4000-8000-000000000002", name: "Home Icecast", url: "http://192.168.1.20:8000/live")
        XCTAssertEqual(try database.importFavorites([.station(home)]), 1)
        var impostor = F.station(home.stationuuid, "Impostor", lat: 10, lon: 10)
        impostor.url = "http://192.168.1.1/admin"
        try database.sync([bob, jazz, impostor])
        XCTAssertEqual(try database.favorites().first?.snapshot.url, home.url)
        XCTAssertEqual(try database.typedFavoriteIDs(), [home.stationuuid])
    }
}
