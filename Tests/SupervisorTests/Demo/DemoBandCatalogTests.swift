import Logging
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// What the demo band writes into its database, on a real (in-memory) SQLite: the band as the whole
/// catalog with this run's loopback URLs, where the radio stands; kept favorites across runs; and the one
/// rule that lets a stream come from loopback.
final class DemoBandCatalogTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var media: DemoMedia!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        media = DemoMedia(directory: directory.path(""))
        // Media already made (not audio: nothing plays here), so no tool runs.
        for station in DemoStation.band { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: media.path(of: station))) }
    }

    override func tearDown() { directory.remove() }

    private func startBand(_ database: WavedialDatabase, location: Coordinate?) throws -> DemoBand {
        let band = DemoBand(media: media, logger: Logger(label: "test"))
        try band.start(database: database, location: location, searchPath: "", shouldContinue: { true }, progress: { _, _ in })
        return band
    }

    func testTheBandIsTheWholeCatalogAroundTheRadioWithThisRunsURLs() throws {
        let database = try WavedialDatabase.inMemory()
        let berlin = Coordinate(latitude: 52.52, longitude: 13.405)
        let band = try startBand(database, location: berlin)
        defer { XCTAssertTrue(band.stop(waitingUpTo: 5)) }
        XCTAssertEqual(try database.stationCount(), DemoStation.band.count)
        let nearby = try database.nearby(berlin, countryCode: nil, limit: 40, radiusKm: 50)
        XCTAssertEqual(Set(nearby.map(\.station.stationuuid)), Set(DemoStation.band.map(\.stationuuid)))
        for entry in nearby {
            XCTAssertEqual(entry.station.url.hasPrefix("http://127.0.0.1:\(band.port)/demo/"), true, entry.station.url)
            XCTAssertLessThan(try XCTUnwrap(entry.distanceKm), 50)
            XCTAssertTrue(entry.station.isPlayable, entry.station.name)
            XCTAssertNotNil(StatedFrequency.find(name: entry.station.name, tags: "", on: .fm), entry.station.name)
        }
        XCTAssertNil(try database.storedLocation(), "a configured location is not stored")
    }

    func testWithNoLocationAnywhereItStoresOneAndARestartKeepsFavoritesWithTheNewPort() throws {
        let database = try WavedialDatabase.inMemory()
        let first = try startBand(database, location: nil)
        XCTAssertNotNil(try database.storedLocation(), "the dial needs a location")
        let station = try XCTUnwrap(try database.station(uuid: DemoStation.band[2].stationuuid))
        XCTAssertTrue(try database.addFavorite(station))
        XCTAssertTrue(first.stop(waitingUpTo: 5))

        let second = try startBand(database, location: nil)
        defer { XCTAssertTrue(second.stop(waitingUpTo: 5)) }
        let favorite = try XCTUnwrap(try database.favorites().first)
        XCTAssertEqual(favorite.stationuuid, station.stationuuid)
        XCTAssertEqual(favorite.snapshot.url, "http://127.0.0.1:\(second.port)/demo/\(DemoStation.band[2].slug)",
                       "the favorite plays from this run's server")
    }

    func testOnlyThisRunsOwnStationsMayComeFromLoopback() throws {
        let database = try WavedialDatabase.inMemory()
        let band = try startBand(database, location: Coordinate(latitude: -33.9, longitude: 18.4))
        defer { XCTAssertTrue(band.stop(waitingUpTo: 5)) }
        let demo = try XCTUnwrap(try database.station(uuid: DemoStation.band[0].stationuuid))
        XCTAssertTrue(band.isLocalDemo(demo))
        var elsewhere = demo
        elsewhere.url = "http://127.0.0.1:8080/admin"
        XCTAssertFalse(band.isLocalDemo(elsewhere), "a demo uuid pointing elsewhere on loopback")
        var impostor = Station(stationuuid: "11111111-0000-4000-8000-000000000001", name: "Impostor", url: demo.url)
        impostor.codec = "MP3"
        XCTAssertFalse(band.isLocalDemo(impostor), "a catalog station pointing at the demo server")
        XCTAssertFalse(DemoBand(media: media, logger: Logger(label: "test")).isLocalDemo(demo), "a band that is not running")
    }

    func testTheDemoDatabaseSitsBesideTheConfiguredOne() {
        XCTAssertEqual(WavedialDatabase.demoPath(beside: "/var/lib/wavedial/wavedial.sqlite"), "/var/lib/wavedial/wavedial-demo.sqlite")
        XCTAssertEqual(WavedialDatabase.demoPath(beside: "/data/radio"), "/data/radio-demo")
        XCTAssertEqual(DemoMedia.defaultDirectory(environment: ["XDG_CACHE_HOME": "/home/a/.cache"], databasePath: "/x/w.sqlite"),
                       "/home/a/.cache/wavedial/demo-\(DemoMedia.version)")
        XCTAssertEqual(DemoMedia.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative"], databasePath: "/x/w.sqlite"),
                       "/x/demo-media-\(DemoMedia.version)")
    }

    func testMissingToolsAreNamedWithWhatToInstall() {
        let empty = DemoMedia(directory: directory.path("empty"))
        XCTAssertThrowsError(try empty.make(DemoStation.band, searchPath: directory.path("no-bin"), shouldContinue: { true },
                                            progress: { _, _ in })) { error in
            XCTAssertEqual(error as? DemoBandError, .missingTools(["espeak-ng", "ffmpeg"]))
            XCTAssertTrue("\(error)".contains("apt install espeak-ng ffmpeg"), "\(error)")
        }
    }
}
