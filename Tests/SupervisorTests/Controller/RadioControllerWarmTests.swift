import Audio
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The controller keeps the playing station's neighbours on the band warm (`[dial] warm_neighbours`,
/// `warm_kbps`); warming is not playing: nothing is recorded or reported for a warm station.
final class RadioControllerWarmTests: XCTestCase {
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private let lock = NSLock()
    private var clicks: [String] = []

    private let stations: [Station] = [("1", "Alpha 90.1"), ("2", "Beta 92.1"), ("3", "Gamma 94.1"), ("4", "Delta 96.1")]
        .map { StationFixtures.station("bbbbbbbb-0000-4000-8000-00000000000\($0.0)", $0.1, lat: 52.52, lon: 13.40) }
    private func id(_ index: Int) -> String { stations[index].stationuuid }

    override func tearDown() {
        controller?.shutdown()
    }

    private func start(_ configure: (inout DialSettings) -> Void = { _ in }, stations: [Station]? = nil) throws {
        database = try WavedialDatabase.inMemory(with: stations ?? self.stations)
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        configure(&configuration.dial)
        controller = RadioController(
            configuration: configuration, database: database, player: player, display: { _ in },
            reportPlay: { [weak self] station in self?.lock.withLock { self?.clicks.append(station.stationuuid) } },
            monotonic: { 1_000_000_000 }, logger: Logger(label: "test"))
        controller.start(resume: false)
    }

    private func tune(_ frequency: String) {
        XCTAssertTrue(controller.perform(.tune(frequency)).ok)
    }

    func testTheNeighboursEachSideAreWarmedAndNeitherRecordedNorReported() throws {
        try start()
        tune("94.1")
        XCTAssertEqual(player.played, [id(2)])
        XCTAssertEqual(player.warmed.last, [id(3), id(1)], "one each side, the one above first")
        tune("96.1")
        XCTAssertEqual(player.warmed.last, [id(2)], "at the band's top only the one below")
        XCTAssertEqual(lock.withLock { clicks }, [id(2), id(3)], "clicks only for the stations played")
        XCTAssertEqual(try database.playHistory().map(\.stationuuid), [id(3), id(2)])
    }

    func testNoneAreWarmedWithWarmNeighboursZero() throws {
        try start { $0.warmNeighbours = 0 }
        tune("94.1")
        XCTAssertEqual(player.warmed.last, [])
    }

    func testAStationOverTheBudgetIsNotWarmed() throws {
        var stations = self.stations
        stations[3].bitrate = 320
        try start({ $0.warmKbps = 256 }, stations: stations)
        tune("94.1")
        XCTAssertEqual(player.warmed.last, [id(1)], "Delta at 320 kbit/s does not fit in 256")
        try start({ $0.warmKbps = 256; $0.warmNeighbours = 2 }, stations: stations)
        tune("94.1")
        XCTAssertEqual(player.warmed.last, [id(1), id(0)])
    }

    func testTheBandShownDecides() throws {
        try start()
        tune("94.1")
        XCTAssertTrue(controller.perform(.band).ok)
        XCTAssertEqual(player.warmed.last, [], "the playing station is not on the favorites band")
        XCTAssertTrue(controller.perform(.band).ok)
        XCTAssertEqual(player.warmed.last, [id(3), id(1)])
    }
}
