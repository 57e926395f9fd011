import Audio
import Display
import Hardware
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// Hearing the dial while it turns and tuning ahead, the controller's side: what it asks of the player,
/// and that only the station the knob rests on counts as played.
final class RadioControllerSweepTests: XCTestCase {
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private let lock = NSLock()
    private var clock: UInt64 = 1_000_000_000
    private var reported: [String] = []
    private let ms: UInt64 = 1_000_000

    private let bob = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)
    private let talk = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000003", "Talk 94.5", lat: 52.51, lon: 13.39)

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [bob, jazz, talk])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
    }

    private func start(_ dial: (inout DialSettings) -> Void = { _ in }) {
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        dial(&configuration.dial)
        controller = RadioController(
            configuration: configuration, database: database, player: player, display: { _ in },
            reportPlay: { [weak self] station in self?.lock.withLock { self?.reported.append(station.stationuuid) } },
            monotonic: { [weak self] in self?.lock.withLock { self?.clock } ?? 0 }, logger: Logger(label: "test"))
        controller.start(resume: false)
    }

    /// Lets `nanoseconds` pass in the daemon's 20 ms ticks (it ticks that often while the needle turns).
    private func advance(_ nanoseconds: UInt64) {
        let end = lock.withLock { clock } + nanoseconds
        while lock.withLock({ clock }) < end {
            let now = lock.withLock { () -> UInt64 in
                clock = min(clock + 20 * ms, end)
                return clock
            }
            controller.tick(at: now)
        }
        controller.waitForWrites()
    }

    private func turn(_ detents: Int) {
        controller.handle(InputEvent(.detent(delta: detents), at: lock.withLock { clock }))
        controller.tick(at: lock.withLock { clock })
    }

    /// The sweep levels asked for, rounded to hundredths ("end": the sweep ended).
    private var levels: [String] {
        player.sweeps.map { $0.level.map { String(format: "%.2f", $0) } ?? "end" }
    }

    private var reports: [String] { lock.withLock { reported } }

    /// What the player was asked to play or tune ahead, in order.
    private var tunes: [String] { player.calls.filter { $0.hasPrefix("play ") || $0.hasPrefix("prepare ") } }

    func testTurningSlowlyTunesTheStationUnderTheNeedleAheadAndFadesItAroundItsFrequency() throws {
        start()
        turn(65)  // 87.5 → 94.0 at once: spinning, so nothing is tuned and only hiss plays
        XCTAssertEqual(tunes, [])
        XCTAssertEqual(levels, ["0.00"])
        advance(200 * ms)  // the knob slowed down before it rests: Jazz 94.1, nearest, is tuned ahead
        XCTAssertEqual(tunes, ["prepare \(jazz.stationuuid)"])
        XCTAssertEqual(levels, ["0.00", "0.25"])
        for _ in 0..<5 {  // 94.1 … 94.5, a detent every 300 ms
            turn(1)
            advance(300 * ms)
        }
        XCTAssertEqual(controller.status.state, .tuning, "not rested yet")
        XCTAssertEqual(tunes, ["prepare \(jazz.stationuuid)", "prepare \(talk.stationuuid)"],
                       "at 94.3 Talk 94.5 became the nearest, going up")
        XCTAssertEqual(levels, ["0.00", "0.25", "1.00", "0.25", "0.00", "0.25", "1.00"])
        XCTAssertTrue(player.sweeps.allSatisfy { $0.noise })
        XCTAssertEqual(reports, [], "nothing counts as played while the knob turns")
        XCTAssertEqual(try database.playHistory(), [])

        advance(400 * ms)
        XCTAssertEqual(player.played, [talk.stationuuid], "the rest plays the station tuned ahead (the player adopts it)")
        XCTAssertEqual(levels.last, "end")
        XCTAssertEqual(reports, [talk.stationuuid], "only the station rested on is reported")
        XCTAssertEqual(try database.playHistory().map(\.stationuuid), [talk.stationuuid])
        XCTAssertEqual(try database.applianceState().lastStation, talk.stationuuid)
        XCTAssertEqual(controller.status.station?.stationuuid, talk.stationuuid)
    }

    func testTheStatusOfAStationPlayingSinceItWasTunedAheadIsShownAtTheRest() {
        start()
        turn(66)  // 94.1
        advance(200 * ms)
        let jazzStation = player.status.station
        XCTAssertEqual(jazzStation?.id, jazz.stationuuid)
        player.report(PlayerStatus(state: .playing, station: jazzStation, title: "Jazz song", streamName: nil))
        advance(20 * ms)
        XCTAssertNil(controller.status.title, "while turning the title of a station tuned ahead is not the radio's")
        player.adoptsPlay = true
        advance(400 * ms)
        XCTAssertEqual(controller.status.state, .playing, "its sound did not stop: no 'connecting' after the rest")
        XCTAssertEqual(controller.status.title, "Jazz song")
    }

    func testSpinningFastTunesNothingAndPlaysOnlyHiss() {
        start()
        for _ in 0..<30 {  // three channels every 40 ms: 75 channels a second
            turn(3)
            advance(40 * ms)
        }
        XCTAssertEqual(tunes, [], "no station tuned while spinning")
        XCTAssertEqual(Set(levels), ["0.00"])
        advance(200 * ms)
        XCTAssertEqual(tunes.count, 1, "slowed down: the nearest is tuned ahead before the rest")
        XCTAssertTrue(tunes[0].hasPrefix("prepare "))
    }

    func testWithoutTheSweepTheStationIsStillTunedAheadButNoSweepIsHeard() {
        start { $0.sweep = false }
        turn(65)
        advance(200 * ms)
        XCTAssertEqual(tunes, ["prepare \(jazz.stationuuid)"])
        advance(400 * ms)
        XCTAssertEqual(player.played, [jazz.stationuuid])
        XCTAssertEqual(levels, [], "no sweep asked for")
        XCTAssertEqual(reports, [jazz.stationuuid])
    }

    func testWithoutNoiseTheSweepIsSilentBetweenStations() {
        start { $0.sweepNoise = false }
        turn(66)
        advance(200 * ms)
        XCTAssertFalse(player.sweeps.isEmpty)
        XCTAssertTrue(player.sweeps.allSatisfy { !$0.noise || $0.level == nil })
    }

    func testSweepingAwayFromTheStationPlayingAndBackNeitherCountsAgainNorLeavesAnotherPlaying() throws {
        start()
        _ = controller.perform(.tune("94.1"))
        player.report(PlayerStatus(state: .playing, station: player.status.station, title: nil, streamName: nil))
        XCTAssertEqual(reports, [jazz.stationuuid])
        for delta in [1, 1, 1, -1, -1, -1] {  // to 94.4 (Talk tuned ahead at 94.3) and back to 94.1
            turn(delta)
            advance(300 * ms)
        }
        XCTAssertEqual(tunes.filter { $0.hasPrefix("prepare") }, ["prepare \(talk.stationuuid)", "prepare \(jazz.stationuuid)"])
        advance(400 * ms)
        XCTAssertEqual(player.played, [jazz.stationuuid, jazz.stationuuid], "the station that played plays on (adopted)")
        XCTAssertEqual(reports, [jazz.stationuuid], "not a new play: no second report")
        XCTAssertEqual(try database.playHistory().count, 1)
        XCTAssertEqual(levels.last, "end")
    }

    func testWhilePausedTurningOnlyMovesTheNeedle() {
        start()
        _ = controller.perform(.tune("94.1"))
        player.report(PlayerStatus(state: .playing, station: player.status.station, title: nil, streamName: nil))
        _ = controller.perform(.pause)
        turn(4)
        advance(300 * ms)
        XCTAssertEqual(tunes.filter { $0.hasPrefix("prepare") }, [])
        XCTAssertEqual(levels, [])
    }

    func testTuningByCommandOrButtonWhileTurningEndsTheSweep() {
        start()
        turn(66)
        advance(200 * ms)
        XCTAssertEqual(levels.last, "1.00")
        _ = controller.perform(.tune("Radio Bob 101.5"))
        XCTAssertEqual(levels.last, "end")
        XCTAssertEqual(player.played, [bob.stationuuid])
        XCTAssertEqual(reports, [bob.stationuuid], "Jazz was only tuned ahead")
        advance(second)
        XCTAssertEqual(player.played, [bob.stationuuid], "no rest snaps afterwards")
    }

    private let second: UInt64 = 1_000_000_000
}
