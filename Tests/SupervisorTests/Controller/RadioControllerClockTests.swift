import Audio
import Display
import Foundation
import Hardware
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The sleep timer and the alarms in the controller, with the recording player, a monotonic clock and a wall
/// clock of the test's own (UTC+1).
final class RadioControllerClockTests: XCTestCase {
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private var screens: [DisplayViewState] = []
    private let lock = NSLock()
    private var clock: UInt64 = 1_000_000_000
    /// Tuesday 2026-11-24, 06:59:00 in UTC+1.
    private var wall: Int64 = 1_795_499_940
    private let second: UInt64 = 1_000_000_000

    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)
    private let talk = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000003", "Talk 94.5", lat: 52.51, lon: 13.39)

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [jazz, talk])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        configuration.clock.sleepFadeSeconds = 10
        configuration.clock.alarmFadeInSeconds = 30
        configuration.clock.alarmStationTimeoutSeconds = 20
        controller = RadioController(
            configuration: configuration, database: database, player: player,
            display: { [weak self] state in self?.lock.withLock { self?.screens.append(state) } },
            monotonic: { [weak self] in self?.lock.withLock { self?.clock } ?? 0 }, logger: Logger(label: "test"))
        controller.clock.wallClock = { [weak self] in self?.lock.withLock { self?.wall } ?? 0 }
        controller.clock.utcOffset = { _ in 3600 }
    }

    /// Moves both clocks on by `seconds`, ticking every quarter second as the daemon does.
    private func advance(seconds: Double) {
        let ticks = max(Int(seconds * 4), 1)
        for tick in 1...ticks {
            lock.withLock {
                clock += UInt64(seconds * 1e9) / UInt64(ticks)
                wall = 1_795_499_940 + Int64((Double(clock) - 1e9) / 1e9)
                _ = tick
            }
            controller.tick(at: lock.withLock { clock })
        }
    }

    private var volumes: [Int] {
        player.calls.filter { $0.hasPrefix("volume ") }.compactMap { Int($0.dropFirst(7)) }
    }

    /// What the player was asked, the volume's steps left out.
    private var actions: [String] { player.calls.filter { !$0.hasPrefix("volume ") } }

    private var lastScreen: DisplayViewState? { lock.withLock { screens.last } }

    // MARK: Sleep

    func testSleepFadesOutOverItsLastSecondsThenPauses() {
        controller.start(resume: false)
        _ = controller.perform(.volume(80))
        _ = controller.perform(.tune("94.1"))
        player.report(PlayerStatus(state: .playing, station: player.stations.last, title: nil, streamName: nil))
        let response = controller.perform(.sleep(seconds: 60))
        XCTAssertTrue(response.ok)
        XCTAssertEqual(response.status?.sleepRemainingS.value, 60)
        XCTAssertTrue(lastScreen?.sleeping ?? false, "the sleep mark")
        let before = volumes.count
        advance(seconds: 49)
        XCTAssertEqual(volumes.count, before, "no change before the fade")
        XCTAssertFalse(player.calls.contains("pause"))
        advance(seconds: 6)
        let fading = Array(volumes.dropFirst(before))
        XCTAssertFalse(fading.isEmpty, "the fade has begun")
        XCTAssertEqual(fading, fading.sorted(by: >), "down only")
        XCTAssertLessThan(fading.last ?? 100, 80)
        XCTAssertGreaterThan(fading.last ?? 0, 20)
        advance(seconds: 5.5)
        XCTAssertTrue(player.calls.contains("pause"), "paused at the end")
        XCTAssertEqual(controller.status.state, .paused)
        XCTAssertNil(controller.status.sleepRemainingS.value)
        XCTAssertEqual(controller.status.volume, 80, "the saved volume is the listener's")
        XCTAssertEqual(volumes.last, 80, "back at the volume for the next play")
        XCTAssertFalse(lastScreen?.sleeping ?? true)
    }

    func testSleepOnOffAndAsked() throws {
        controller.start(resume: false)
        XCTAssertEqual(controller.perform(.sleep(seconds: 90)).status?.sleepRemainingS.value, 90)
        XCTAssertEqual(controller.perform(.sleep(seconds: nil)).status?.sleepRemainingS.value, 90, "asking changes nothing")
        XCTAssertNil(controller.perform(.sleep(seconds: 0)).status?.sleepRemainingS.value)
        // The JSON field is there, null, when off.
        let json = try XCTUnwrap(String(data: try JSONEncoder().encode(controller.status), encoding: .utf8))
        XCTAssertTrue(json.contains("\"sleep_remaining_s\":null"), json)
        XCTAssertTrue(json.contains("\"next_alarm\":null"), json)
    }

    func testALongPressOnPauseCyclesTheSleepTimer() {
        controller.start(resume: false)
        func longPress() -> Int? {
            controller.handle(InputEvent(.button(name: "pause", action: .long), at: lock.withLock { clock }))
            return controller.status.sleepRemainingS.value
        }
        XCTAssertEqual(RadioIntent.forButton("pause", .long), .cycleSleepTimer)
        XCTAssertEqual(longPress(), 15 * 60)
        XCTAssertEqual(longPress(), 30 * 60)
        XCTAssertEqual(longPress(), 60 * 60)
        XCTAssertNil(longPress())
        XCTAssertEqual(longPress(), 15 * 60)
        _ = controller.perform(.sleep(seconds: 1200))
        XCTAssertEqual(longPress(), 30 * 60, "from a time set otherwise, the next step above it")
        XCTAssertFalse(player.calls.contains("pause"), "a long press is not a pause")
    }

    // MARK: Alarms

    private func addAlarm(_ time: String, days: String? = nil, station: String? = nil) throws -> ControlResponse {
        let response = controller.perform(.alarmAdd(AlarmRequest(time: time, days: days, stationuuid: station)))
        XCTAssertTrue(response.ok, response.error ?? "")
        return response
    }

    func testAnAlarmTunesItsStationAndFadesItIn() throws {
        controller.start(resume: false)
        _ = controller.perform(.volume(60))
        let response = try addAlarm("07:00", days: "mon-fri", station: jazz.stationuuid)
        XCTAssertEqual(response.alarms?.first?.nextRing, "2026-11-24T07:00:00+01:00")
        XCTAssertEqual(response.alarms?.first?.days, "mon-fri")
        XCTAssertEqual(controller.status.nextAlarm.value, "2026-11-24T07:00:00+01:00")
        XCTAssertEqual(lastScreen?.nextAlarm, "Tue 07:00", "on the idle clock")
        advance(seconds: 59)
        XCTAssertEqual(player.played, [], "not yet")
        advance(seconds: 1)
        XCTAssertEqual(player.played, [jazz.stationuuid], "at 07:00")
        player.report(PlayerStatus(state: .playing, station: player.stations.last, title: nil, streamName: nil))
        let start = volumes.count
        advance(seconds: 31)
        let fade = Array(volumes.dropFirst(start - 1))
        XCTAssertLessThanOrEqual(fade.first ?? 100, 10, "from low")
        XCTAssertEqual(fade, fade.sorted(), "up only")
        XCTAssertEqual(fade.last, 60, "to the saved volume")
        XCTAssertFalse(player.calls.contains("tone"))
        XCTAssertEqual(controller.status.nextAlarm.value, "2026-11-25T07:00:00+01:00", "tomorrow's")
        advance(seconds: 60)
        XCTAssertEqual(player.played, [jazz.stationuuid], "once")
    }

    func testAStationThatFailsGivesWayToTheTone() throws {
        controller.start(resume: false)
        _ = try addAlarm("06:59:30", station: talk.stationuuid)
        advance(seconds: 31)
        XCTAssertEqual(player.played, [talk.stationuuid])
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.stationOffline, detail: "HTTP 404"), willRetry: false), station: player.stations.last,
                                   title: nil, streamName: nil))
        advance(seconds: 0.5)
        XCTAssertEqual(actions.suffix(2), ["stop", "tone"], "the tone, without the station")
        XCTAssertEqual(controller.status.alarmTone, true)
        // The listener is awake: any button ends it.
        controller.handle(InputEvent(.button(name: "pause", action: .click), at: lock.withLock { clock }))
        XCTAssertNil(controller.status.alarmTone)
        XCTAssertEqual(actions.last, "tone off")
        XCTAssertNil(controller.status.alarmTone)
    }

    func testNoNetworkOrNoSoundInTimeGivesWayToTheTone() throws {
        controller.start(resume: false)
        _ = try addAlarm("06:59:30", station: jazz.stationuuid)
        advance(seconds: 31)
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.noNetwork, detail: "no route"), willRetry: true), station: player.stations.last,
                                   title: nil, streamName: nil))
        advance(seconds: 0.5)
        XCTAssertEqual(actions.last, "tone", "no network: the tone at once")

        controller.handle(InputEvent(.button(name: "play", action: .click), at: lock.withLock { clock }))
        XCTAssertEqual(controller.status.alarmTone, nil)
        XCTAssertTrue(player.calls.contains("tone off"))
        _ = try addAlarm("07:01", station: talk.stationuuid)
        advance(seconds: 89)  // 07:01:00.5
        XCTAssertEqual(player.played.last, talk.stationuuid, "\(actions)")
        let tones = player.calls.filter { $0 == "tone" }.count
        advance(seconds: 19)
        XCTAssertEqual(player.calls.filter { $0 == "tone" }.count, tones, "still within the bound")
        advance(seconds: 1.5)
        XCTAssertEqual(player.calls.filter { $0 == "tone" }.count, tones + 1, "not heard within 20 s: the tone")
    }

    func testWithNoStationAtAllTheToneSounds() throws {
        controller.start(resume: false)
        _ = try addAlarm("06:59:10")
        advance(seconds: 11)
        XCTAssertEqual(player.played, [])
        XCTAssertEqual(actions.last, "tone")
    }

    func testDisabledAndRemovedAlarmsDoNotRing() throws {
        controller.start(resume: false)
        let id = try XCTUnwrap(try addAlarm("06:59:10", station: jazz.stationuuid).alarms?.first?.id)
        XCTAssertTrue(controller.perform(.alarmDisable(id: id)).ok)
        XCTAssertNil(controller.status.nextAlarm.value)
        advance(seconds: 11)
        XCTAssertEqual(player.played, [])
        XCTAssertTrue(controller.perform(.alarmEnable(id: id)).ok)
        XCTAssertTrue(controller.perform(.alarmRemove(id: id)).ok)
        XCTAssertFalse(controller.perform(.alarmRemove(id: id)).ok)
        XCTAssertFalse(controller.perform(.alarmAdd(AlarmRequest(time: "25:00"))).ok)
        XCTAssertFalse(controller.perform(.alarmAdd(AlarmRequest(time: "07:00", days: "someday"))).ok)
        XCTAssertEqual(try database.alarms().count, 0)
    }

    /// The control socket and the web API both come here: a station that is neither the catalog's nor a
    /// favorite is refused as not found, and nothing is stored.
    func testAnAlarmForAStationThatDoesNotExistIsRefused() throws {
        for station in ["not-a-uuid-<b>", "../../x", "00000000-0000-4000-8000-00000000ffff"] {
            let response = controller.perform(.alarmAdd(AlarmRequest(time: "07:00", stationuuid: station)))
            XCTAssertFalse(response.ok, station)
            XCTAssertEqual(response.errorKind, .notFound, station)
            XCTAssertEqual(response.error, "no station \(station.lowercased()) in the catalog or the favorites")
        }
        XCTAssertEqual(try database.alarms().count, 0)
        _ = try addAlarm("07:00", station: jazz.stationuuid.uppercased())
    }

    func testAWallClockThatJumpsRingsOnlyRecentAlarms() throws {
        controller.start(resume: false)
        _ = try addAlarm("06:59:30", station: jazz.stationuuid)
        _ = try addAlarm("08:00", station: talk.stationuuid)
        // The clock is set back an hour (no ring), then jumps forward past 07:00 by three hours (too late for
        // 06:59:30, 08:00 within the catch-up? no: 3 h is beyond it too).
        lock.withLock { wall -= 3600 }
        controller.tick(at: lock.withLock { clock += second; return clock })
        XCTAssertEqual(player.played, [])
        lock.withLock { wall += 3600 + 3 * 3600 }
        controller.tick(at: lock.withLock { clock += second; return clock })
        XCTAssertEqual(player.played, [], "a jump of hours rings nothing")
        lock.withLock { wall = 1_795_499_940 + 60 + 3600 - 5 * 60 }  // 07:55
        controller.tick(at: lock.withLock { clock += second; return clock })
        lock.withLock { wall += 6 * 60 }  // 08:01: within the catch-up
        controller.tick(at: lock.withLock { clock += second; return clock })
        XCTAssertEqual(player.played, [talk.stationuuid])
    }
}
