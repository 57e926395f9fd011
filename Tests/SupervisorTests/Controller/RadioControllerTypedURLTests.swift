import Audio
import CurlSupport
import Foundation
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// `tune URL`: a stream URL the user typed is a station of its own, played under the user-typed address
/// policy, unless the catalog has that URL (then it is that catalog station). It goes into back and
/// forward, becomes a typed favorite, is tuned again after a restart, and is never reported to Radio
/// Browser as a click. What is no http or https URL is refused with the reason and changes nothing.
final class RadioControllerTypedURLTests: XCTestCase {
    private typealias F = StationFixtures
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private let lock = NSLock()
    private var clicks: [String] = []

    private let bob = F.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private lazy var relayed: Station = {
        var station = F.station("aaaaaaaa-0000-4000-8000-000000000002", "Relay FM", lat: 52.53, lon: 13.41)
        station.url = "http://stream.example/relay.pls"
        station.urlResolved = "http://192.168.1.30/relay"
        return station
    }()
    private let home = "http://192.168.1.20:8000/live.mp3"

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [bob, relayed])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        restart(resume: false)
    }

    override func tearDown() {
        controller.shutdown()
    }

    /// A new controller and player on the same database, as after a power cut.
    private func restart(resume: Bool) {
        controller?.shutdown()
        player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        controller = RadioController(
            configuration: configuration, database: database, player: player, display: { _ in },
            reportPlay: { [weak self] station in self?.lock.withLock { self?.clicks.append(station.stationuuid) } },
            monotonic: { 1_000_000_000 }, logger: Logger(label: "test"))
        controller.start(resume: resume)
    }

    private var reported: [String] { lock.withLock { clicks } }

    @discardableResult
    private func perform(_ command: ControlCommand, file: StaticString = #filePath, line: UInt = #line) -> ControlResponse {
        let response = controller.perform(command)
        XCTAssertTrue(response.ok, "\(command): \(response.error ?? "")", file: file, line: line)
        return response
    }

    func testATypedURLIsAStationOfItsOwnUnderTheUserTypedPolicy() throws {
        let response = perform(.tune(home))
        let played = try XCTUnwrap(player.stations.last)
        XCTAssertEqual(played.url, home)
        XCTAssertEqual(played.id, FavoritesFile.syntheticUUID(for: home))
        XCTAssertEqual(played.addressPolicy, .userTyped)
        XCTAssertEqual(response.status?.station,
                       RadioStatus.StationInfo(stationuuid: played.id, name: "192.168.1.20:8000/live.mp3", frequencyMHz: nil))
        XCTAssertEqual(response.status?.favorite, false)
        XCTAssertEqual(try database.playHistory().first?.stationuuid, played.id)
    }

    /// The catalog's URL (or resolved URL) typed is that catalog station, with the catalog's policy: a
    /// catalog record cannot be made a LAN station by typing its URL.
    func testTheURLOfACatalogStationIsThatStation() throws {
        perform(.tune(bob.url))
        XCTAssertEqual(player.stations.last?.id, bob.stationuuid)
        XCTAssertEqual(player.stations.last?.addressPolicy, .catalog)
        perform(.tune(relayed.urlResolved))
        XCTAssertEqual(player.stations.last?.id, relayed.stationuuid)
        XCTAssertEqual(player.stations.last?.addressPolicy, .catalog)
        // The station's own URL plays, its playlist resolved now, not the checker's stale resolution.
        XCTAssertEqual(player.stations.last?.url, relayed.url)
    }

    /// Only catalog stations are reported as clicks: neither a typed URL nor an imported playlist entry
    /// (whose made-up id looks like a UUID) ever reaches Radio Browser.
    func testOnlyCatalogStationsAreReportedAsClicks() throws {
        perform(.tune(home))
        XCTAssertEqual(try database.importFavorites([.stream(url: "http://192.168.1.21/radio", name: "Attic")]), 1)
        controller.reload()
        perform(.band)
        perform(.tune("100.0"))
        XCTAssertEqual(player.stations.last?.url, "http://192.168.1.21/radio")
        XCTAssertEqual(reported, [])
        perform(.tune(bob.stationuuid))
        XCTAssertEqual(reported, [bob.stationuuid])
    }

    func testWhatIsNoHTTPURLIsRefusedWithTheReasonAndChangesNothing() throws {
        perform(.tune(bob.stationuuid))
        let refusals = [
            ("ftp://example.com/live", "only http and https streams can be tuned, not ftp"),
            ("file:///etc/passwd", "only http and https streams can be tuned, not file"),
            ("http://", "the URL names no host"),
            ("http:///live", "the URL names no host"),
            ("HTTPS:live", "the URL names no host"),
            ("http://exa mple.com/live", "the URL holds spaces, control or non-ASCII characters (percent-encode them)"),
            ("http://example.com/\u{1B}[2J", "the URL holds spaces, control or non-ASCII characters (percent-encode them)"),
            ("http://example.com/" + String(repeating: "a", count: 8192), "the URL is longer than 8192 bytes"),
        ]
        for (value, reason) in refusals {
            let response = controller.perform(.tune(value))
            XCTAssertFalse(response.ok, value)
            XCTAssertEqual(response.error, reason, value)
        }
        XCTAssertEqual(player.stations.count, 1, "nothing else was played")
        XCTAssertEqual(controller.status.station?.stationuuid, bob.stationuuid)
    }

    func testATypedURLGoesBackAndForward() throws {
        perform(.tune(home))
        perform(.tune(bob.stationuuid))
        perform(.back)
        XCTAssertEqual(player.stations.last?.url, home)
        XCTAssertEqual(player.stations.last?.addressPolicy, .userTyped)
        perform(.forward)
        XCTAssertEqual(player.stations.last?.id, bob.stationuuid)
        XCTAssertEqual(player.stations.last?.addressPolicy, .catalog)
    }

    /// `favorite` on a typed URL makes it a typed favorite: after a restart it is resumed, and tuned from
    /// the favorites band, under the user-typed policy.
    func testAFavoriteTypedURLStaysTheUsersAfterARestart() throws {
        perform(.tune(home))
        XCTAssertEqual(perform(.favorite).status?.favorite, true)
        let uuid = FavoritesFile.syntheticUUID(for: home)
        XCTAssertEqual(try database.typedFavoriteIDs(), [uuid])
        XCTAssertEqual(try database.favorites().first?.snapshot.url, home)

        restart(resume: true)
        XCTAssertEqual(player.stations.last?.url, home)
        XCTAssertEqual(player.stations.last?.addressPolicy, .userTyped)
        XCTAssertEqual(controller.status.favorite, true)
        perform(.tune(bob.stationuuid))
        perform(.band)
        perform(.tune("100.0"))
        XCTAssertEqual(player.stations.last?.url, home)
        XCTAssertEqual(player.stations.last?.addressPolicy, .userTyped)
        XCTAssertEqual(reported, [bob.stationuuid])
    }

    /// Typing the URL of a favorite imported from a playlist tunes that favorite, with its name.
    func testTypingATypedFavoritesURLIsThatFavorite() throws {
        XCTAssertEqual(try database.importFavorites([.stream(url: home, name: "Attic")]), 1)
        controller.reload()
        let response = perform(.tune(home))
        XCTAssertEqual(response.status?.station?.name, "Attic")
        XCTAssertEqual(response.status?.favorite, true)
        XCTAssertEqual(player.stations.last?.addressPolicy, .userTyped)
    }

    /// A typed URL that is no favorite is tuned again after a restart too (the appliance state keeps its URL).
    func testATypedURLIsResumedAfterARestart() throws {
        perform(.tune(home))
        restart(resume: true)
        XCTAssertEqual(player.stations.last?.url, home)
        XCTAssertEqual(player.stations.last?.addressPolicy, .userTyped)
        XCTAssertEqual(controller.status.station?.name, "192.168.1.20:8000/live.mp3")
        perform(.tune(bob.stationuuid))
        restart(resume: true)
        XCTAssertEqual(player.stations.last?.id, bob.stationuuid, "a catalog station tuned since is what is resumed")
        XCTAssertEqual(player.stations.last?.addressPolicy, .catalog)
    }
}
