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

final class RadioControllerTests: XCTestCase {
    private typealias F = StationFixtures
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private var screens: [DisplayViewState] = []
    private let lock = NSLock()
    private var clock: UInt64 = 1_000_000_000
    private let second: UInt64 = 1_000_000_000

    // Three stations near Berlin: two state their frequency, one gets a hashed slot.
    private let bob = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
    private let jazz = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000002", "Jazz 94.1", lat: 52.53, lon: 13.41)
    private let talk = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000003", "Talk 94.5", lat: 52.51, lon: 13.39)

    override func setUpWithError() throws {
        database = try WavedialDatabase.inMemory(with: [bob, jazz, talk])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
        controller = makeController()
    }

    private func makeController() -> RadioController {
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        return RadioController(
            configuration: configuration, database: database, player: player,
            display: { [weak self] state in self?.lock.withLock { self?.screens.append(state) } },
            monotonic: { [weak self] in self?.lock.withLock { self?.clock } ?? 0 }, logger: Logger(label: "test"))
    }

    /// Lets time pass (what the store was handed meanwhile is written: the disk keeps up with a minute).
    private func advance(_ nanoseconds: UInt64) {
        lock.withLock { clock += nanoseconds }
        controller.tick(at: lock.withLock { clock })
        controller.waitForWrites()
    }

    private func turn(_ detents: Int) {
        controller.handle(InputEvent(.detent(delta: detents), at: lock.withLock { clock }))
        controller.tick(at: lock.withLock { clock })
    }

    /// A button pressed, and a moment for what it changed to be written (a favorite's band rebuilt).
    private func press(_ button: String, _ action: ButtonAction = .click) {
        controller.handle(InputEvent(.button(name: button, action: action), at: lock.withLock { clock }))
        controller.tick(at: lock.withLock { clock })
        controller.waitForWrites()
    }

    private var lastScreen: DisplayViewState? { lock.withLock { screens.last } }

    /// A banner (the setup file's problem, at start) shows for its time, then the bottom row is the radio's again.
    func testABannerShowsForItsTime() {
        controller.start(resume: false)
        controller.showBanner("Setup file line 3: bad hostname", forNanoseconds: 10 * second)
        advance(second)
        XCTAssertEqual(lastScreen?.banner, "Setup file line 3: bad hostname")
        advance(10 * second)
        XCTAssertNil(lastScreen?.banner)
    }

    /// Fast ticks only while the needle turns: from the first detent until it snaps.
    func testAsksForFastTicksOnlyWhileTheNeedleTurns() {
        var paces: [Bool] = []
        controller.onTickPace = { [lock] fast in lock.withLock { paces.append(fast) } }
        controller.start(resume: false)
        advance(second)
        XCTAssertEqual(lock.withLock { paces }, [], "a resting radio keeps the resting pace")
        turn(65)
        XCTAssertEqual(lock.withLock { paces }, [true])
        turn(1)
        advance(200_000_000)
        XCTAssertEqual(lock.withLock { paces }, [true], "still turning: no change")
        advance(300_000_000)
        XCTAssertEqual(player.played.count, 1, "snapped")
        XCTAssertEqual(lock.withLock { paces }, [true, false])
        advance(second)
        XCTAssertEqual(lock.withLock { paces }, [true, false])
    }

    func testTurningShowsTheNeedleAndSnapsToTheClosestStationAfterTheRest() {
        controller.start(resume: false)
        turn(65)  // 87.5 + 6.5 = 94.0
        XCTAssertEqual(controller.status.state, .tuning)
        XCTAssertEqual(controller.status.needleMHz, 94.0)
        XCTAssertEqual(lastScreen?.phase, .tuning)
        XCTAssertEqual(lastScreen?.frequency, 94.0)
        XCTAssertEqual(lastScreen?.stationName, "Jazz 94.1", "the station nearest the needle")
        advance(399_000_000)
        XCTAssertEqual(player.played, [], "no tuning while the knob is still within its rest time")
        advance(2_000_000)
        XCTAssertEqual(player.played, [jazz.stationuuid])
        XCTAssertEqual(controller.status.needleMHz, 94.1)
        XCTAssertEqual(controller.status.station?.frequencyMHz, 94.1)
        XCTAssertEqual(controller.status.state, .connecting)
        XCTAssertEqual(try database.playHistory().first?.stationuuid, jazz.stationuuid)
    }

    func testARestingRadioRedrawsAtItsFourTicksASecondAndATurningOneAtEveryTick() {
        controller.start(resume: false)
        var before = lock.withLock { screens.count }
        for _ in 0..<4 { advance(250_000_000) }  // one second of the daemon's resting ticks
        XCTAssertEqual(lock.withLock { screens.count } - before, 4, "the clock, counters and timeouts")
        before = lock.withLock { screens.count }
        advance(240_000_000)
        advance(260_000_000)
        XCTAssertEqual(lock.withLock { screens.count } - before, 2, "a tick a little early (the timer's leeway) still redraws")
        before = lock.withLock { screens.count }
        for _ in 0..<50 { advance(20_000_000) }  // a second of 20 ms ticks while resting
        XCTAssertEqual(lock.withLock { screens.count } - before, 5, "at most every 200 ms, however often it ticks")
        turn(1)
        let turning = lock.withLock { screens.count }
        for _ in 0..<10 { advance(20_000_000) }  // within the 400 ms rest
        XCTAssertEqual(lock.withLock { screens.count } - turning, 10, "the needle's rest is checked at every tick")
    }

    func testTiesSnapInTheDirectionOfTravel() {
        controller.start(resume: false)
        turn(68)  // 94.3: 94.1 and 94.5 are equally near; turning up
        advance(second)
        XCTAssertEqual(player.played, [talk.stationuuid])
        turn(-4)  // 94.1 exactly
        turn(2)  // 94.3 again, now reached going up
        advance(second)
        XCTAssertEqual(player.played.last, talk.stationuuid)
        turn(-1)  // 94.4 going down
        turn(-1)  // 94.3 going down: the tie goes down
        advance(second)
        XCTAssertEqual(player.played.last, jazz.stationuuid)
    }

    func testBackAndForwardWalkTheHistory() {
        controller.start(resume: false)
        XCTAssertFalse(controller.perform(.tune("101.5")).ok == false)
        _ = controller.perform(.tune("94.1"))
        _ = controller.perform(.tune("Talk 94.5"))
        press("back")
        press("back")
        XCTAssertEqual(player.played.suffix(2), [jazz.stationuuid, bob.stationuuid])
        XCTAssertEqual(controller.status.needleMHz, 101.5, "the needle follows")
        press("forward")
        XCTAssertEqual(player.played.last, jazz.stationuuid)
        _ = controller.perform(.tune(bob.stationuuid))
        let refused = controller.perform(.forward)
        XCTAssertFalse(refused.ok, "tuning elsewhere dropped the forward list")
        XCTAssertEqual(refused.error, "nothing to go forward to")
    }

    func testFavoriteTogglesAndALongPressSwitchesToTheFavoritesBand() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        press("favorite")
        XCTAssertTrue(controller.status.favorite)
        XCTAssertEqual(try database.favorites().map(\.stationuuid), [bob.stationuuid])
        XCTAssertEqual(lastScreen?.isFavorite, true)
        press("favorite", .long)
        XCTAssertEqual(controller.status.band, .favorites)
        XCTAssertEqual(lastScreen?.band, .favorites)
        // On the favorites band the knob only finds favorites: Bob, wherever the needle goes.
        turn(-100)
        advance(second)
        XCTAssertEqual(player.played.last, bob.stationuuid)
        XCTAssertEqual(player.played.count, 1, "snapping back to the station playing does not restart it")
        press("favorite")
        XCTAssertFalse(controller.status.favorite)
        XCTAssertEqual(try database.favorites().count, 0)
        press("favorite", .long)
        XCTAssertEqual(controller.status.band, .nearby)
    }

    func testPauseResumeVolumeAndMute() throws {
        controller.start(resume: false)
        press("play")  // nothing tuned: plays the station nearest the needle
        XCTAssertEqual(player.played.count, 1)
        player.report(PlayerStatus(state: .playing, station: player.status.station, title: nil, streamName: nil))
        press("pause")
        XCTAssertEqual(controller.status.state, .paused)
        press("play")
        XCTAssertEqual(player.calls.suffix(2), ["pause", "resume"])
        XCTAssertEqual(controller.perform(.volume(40)).status?.volume, 40)
        XCTAssertEqual(player.volume, 0.4, accuracy: 1e-9)
        XCTAssertEqual(lastScreen?.volume, 40, "the volume overlay shows")
        advance(3 * second)
        XCTAssertNil(lastScreen?.volume, "and goes away")
        press("push")
        XCTAssertTrue(controller.status.muted)
        XCTAssertEqual(player.volume, 0)
        XCTAssertEqual(lastScreen?.muted, true, "the overlay says muted")
        XCTAssertEqual(lastScreen?.volume, 40, "with the level unmuting comes back to, not 0")
        press("push")
        XCTAssertEqual(player.volume, 0.4, accuracy: 1e-9)
        XCTAssertEqual(lastScreen?.muted, false)
        XCTAssertEqual(lastScreen?.volume, 40)
        XCTAssertEqual(try database.applianceState().volume, 40)
    }

    /// The intents a remote's keys carry: along the band in both directions (wrapping), the volume in
    /// steps within 0–100 (unmuting), the favorites by number, play/pause in one key.
    func testIntentsStepAlongTheBandChangeTheVolumeByStepsAndTuneFavoritesByNumber() throws {
        controller.start(resume: false)
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        let band = try database.nearbyBand(location: Coordinate(latitude: 52.52, longitude: 13.405), countryCode: "DE",
                                           settings: configuration.dial).band.entries.map(\.stationuuid)
        XCTAssertEqual(band.count, 3)
        _ = controller.perform(.tune(band[0]))
        let intent = { (intent: RadioIntent) in
            self.controller.request(intent)
            self.controller.tick(at: self.lock.withLock { self.clock })
        }
        intent(.stepStation(by: 1))
        XCTAssertEqual(player.played.last, band[1])
        intent(.stepStation(by: 2))
        XCTAssertEqual(player.played.last, band[0], "past the top of the band the bottom follows")
        intent(.stepStation(by: -1))
        XCTAssertEqual(player.played.last, band[2], "and below the bottom the top")
        XCTAssertEqual(controller.status.station?.stationuuid, band[2])

        _ = controller.perform(.volume(97))
        intent(.changeVolume(byPercent: 2))
        intent(.changeVolume(byPercent: 2))
        XCTAssertEqual(controller.status.volume, 100, "bounded above")
        intent(.toggleMute)
        XCTAssertTrue(controller.status.muted)
        intent(.changeVolume(byPercent: -4))
        XCTAssertFalse(controller.status.muted, "a volume change unmutes")
        XCTAssertEqual(controller.status.volume, 96)
        XCTAssertEqual(player.volume, 0.96, accuracy: 1e-9)
        XCTAssertEqual(lastScreen?.volume, 96, "the volume overlay shows")

        press("favorite")  // band[2], then band[0]
        _ = controller.perform(.tune(band[0]))
        press("favorite")
        intent(.favorite(number: 1))
        XCTAssertEqual(player.played.last, band[2], "favorite 1 is the first in fav list")
        intent(.favorite(number: 2))
        XCTAssertEqual(player.played.last, band[0])
        let plays = player.played.count
        intent(.favorite(number: 3))
        intent(.favorite(number: 0))
        XCTAssertEqual(player.played.count, plays, "no such favorite: nothing is tuned")

        player.report(PlayerStatus(state: .playing, station: player.status.station, title: nil, streamName: nil))
        intent(.playPause)
        XCTAssertEqual(controller.status.state, .paused)
        intent(.playPause)
        XCTAssertEqual(player.calls.suffix(2), ["pause", "resume"])
    }

    /// What the MPD server and the web page list: the band in frequency order, favorites by number.
    func testDialListingShowsTheBandAndTheFavoritesInTheirOrder() {
        controller.start(resume: false)
        var listing = controller.dialListing()
        XCTAssertEqual(listing.band, .nearby)
        XCTAssertEqual(listing.startMHz, 87.5)
        XCTAssertEqual(listing.endMHz, 108.0)
        XCTAssertEqual(listing.dial.map(\.name).sorted(), ["Jazz 94.1", "Radio Bob 101.5", "Talk 94.5"])
        let frequencies = listing.dial.compactMap(\.frequencyMHz)
        XCTAssertEqual(frequencies.count, 3)
        XCTAssertEqual(frequencies, frequencies.sorted(), "lowest frequency first")
        XCTAssertEqual(listing.dial.first { $0.name == "Jazz 94.1" }?.frequencyMHz, 94.1)
        XCTAssertEqual(listing.favorites, [])

        _ = controller.perform(.tune("Talk 94.5"))
        press("favorite")
        _ = controller.perform(.tune("Jazz 94.1"))
        press("favorite")
        listing = controller.dialListing()
        XCTAssertEqual(listing.favorites.map(\.name), ["Talk 94.5", "Jazz 94.1"])
        XCTAssertEqual(listing.favorites.map(\.favoriteNumber), [1, 2])
        XCTAssertEqual(listing.dial.first { $0.name == "Radio Bob 101.5" }?.favoriteNumber, nil)
        XCTAssertEqual(listing.needleMHz, 94.1)
    }

    func testResumesTheLastStationAndVolumeOnStart() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("Talk 94.5"))
        _ = controller.perform(.volume(25))
        controller.shutdown()
        XCTAssertEqual(player.calls.last, "stop")

        player = RecordingPlayer()
        controller = makeController()
        controller.start(resume: true)
        XCTAssertEqual(player.played, [talk.stationuuid])
        XCTAssertEqual(player.volume, 0.25, accuracy: 1e-9)
        XCTAssertEqual(controller.status.needleMHz, 94.5)

        player = RecordingPlayer()
        controller = makeController()
        controller.start(resume: false)
        XCTAssertEqual(player.played, [], "resume_on_start = false: silent, but the needle is where it was")
        XCTAssertEqual(controller.status.needleMHz, 94.5)
    }

    func testConnectingDetailAndFailureDetailReachStatusAndDisplayOnlyWhileTheyApply() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        let station = player.status.station
        let busy = PlaybackFailure(.stationOffline, detail: "HTTP 503 Service Unavailable", httpStatus: 503)
        player.report(PlayerStatus(state: .connecting, station: station, title: nil, streamName: nil,
                                   connectionStage: .retrying(busy)))
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.connectingDetail, "Retrying (HTTP 503)…")
        XCTAssertNil(controller.status.errorDetail)
        XCTAssertEqual(lastScreen?.phase, .connecting)
        XCTAssertEqual(lastScreen?.connectingDetail, "Retrying (HTTP 503)…")

        // The detail names the station's host: cleaned of controls, and cut.
        let host = "evil\u{1B}]0;pwned\u{07}" + String(repeating: "x", count: 500) + ".invalid"
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.stationOffline, detail: "no such host: \(host)",
                                                                  isDefinitive: true), willRetry: false),
                                   station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        let status = controller.status
        XCTAssertEqual(status.error, .stationOffline)
        XCTAssertNil(status.connectingDetail)
        let detail = try XCTUnwrap(status.errorDetail)
        XCTAssertTrue(detail.hasPrefix("no such host: evil ]0;pwned "), detail)
        XCTAssertLessThanOrEqual(detail.count, 200)
        XCTAssertNil(lastScreen?.connectingDetail)

        // Playing: neither field is sent, so the JSON is what it was before they existed.
        player.hear("Artist – Song")
        controller.tick(at: clock)
        let json = try XCTUnwrap(String(data: JSONEncoder().encode(controller.status), encoding: .utf8))
        XCTAssertFalse(json.contains("connecting_detail"), json)
        XCTAssertFalse(json.contains("error_detail"), json)
    }

    func testFailuresAndTitlesReachTheDisplayAndTheHistory() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        let station = player.status.station
        player.hear("Artist – Song")
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.title, "Artist – Song")
        XCTAssertEqual(lastScreen?.nowPlaying, "Artist – Song")
        controller.waitForWrites()
        XCTAssertEqual(try database.songHistory().first?.title, "Artist – Song")
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.stationOffline, detail: "HTTP 404"), willRetry: false),
                                   station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.error, .stationOffline)
        XCTAssertEqual(lastScreen?.phase, .failed(.stationOffline))
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.timedOut, detail: "stalled"), willRetry: true),
                                   station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertEqual(lastScreen?.phase, .failed(.other("Reconnecting")))
        XCTAssertEqual(controller.status.error, .reconnecting)
        // Retrying for want of a network says so: the listener should look at the network, not the station.
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.noNetwork, detail: "unreachable"), willRetry: true),
                                   station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertEqual(lastScreen?.phase, .failed(.noNetwork))
        XCTAssertEqual(controller.status.error, .noNetwork)
        // A late report about a station switched away from changes nothing.
        _ = controller.perform(.tune("94.1"))
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.stationOffline, detail: "old"), willRetry: false),
                                   station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertNil(controller.status.error)
    }

    /// The title and the failure belong to the station they came with: the status a tune answers with
    /// (before the player says anything of the new station) and the LCD show neither for the next one.
    func testTheTitleAndTheFailureOfTheStationTunedAwayFromAreNotShownForTheNext() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        player.hear("Artist – Song")
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.title, "Artist – Song")
        var reply = controller.perform(.tune("94.1"))
        XCTAssertEqual(reply.status?.station?.stationuuid, jazz.stationuuid)
        XCTAssertNil(reply.status?.title)
        XCTAssertNotEqual(lock.withLock { screens.first(where: { $0.stationName == jazz.name })?.nowPlaying }, "Artist – Song")

        player.report(PlayerStatus(state: .failed(PlaybackFailure(.stationOffline, detail: "HTTP 404"), willRetry: false),
                                   station: player.status.station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.error, .stationOffline)
        reply = controller.perform(.tune("101.5"))
        XCTAssertNil(reply.status?.error)
        XCTAssertEqual(reply.status?.state, .connecting)
    }

    func testALostAudioDeviceAndDevicesOfflineAreShownInTheirOwnWords() throws {
        controller.start(resume: false)
        controller.setNotice("Knob offline", from: "input")
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.error, .knobOffline, "a device that is down is a fault")
        XCTAssertEqual(lastScreen?.phase, .failed(.other("Knob offline")), "shown while nothing plays")
        controller.setNotice("Syncing catalog", from: "catalog")
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.error, .knobOffline, "sync progress is no error")

        _ = controller.perform(.tune("101.5"))
        let station = player.status.station
        player.report(PlayerStatus(state: .failed(PlaybackFailure(.outputFailed, detail: "snd_pcm_writei: No such device"),
                                                  willRetry: true), station: station, title: nil, streamName: nil))
        controller.tick(at: clock)
        XCTAssertEqual(controller.status.error, .audioDevice, "the player's own failure first; a device is not the network")
        XCTAssertEqual(lastScreen?.phase, .failed(.audioDevice))
        player.report(PlayerStatus(state: .playing, station: station, title: nil, streamName: nil))
        controller.setNotice(nil, from: "input")
        controller.tick(at: clock)
        XCTAssertNil(controller.status.error)
        XCTAssertEqual(lastScreen?.phase, .playing)
    }

    /// What the radio's state refuses (the wire's own refusals: ControlCommandWireTests).
    func testCommandsTheRadioCannotCarryOutAreRefusedInWords() {
        controller.start(resume: false)
        XCTAssertEqual(controller.perform(.tune("120")).error,
                       "120 MHz is outside the band (87.5–108.0 MHz)")
        XCTAssertEqual(controller.perform(.tune("Nowhere FM")).error, "no station matches 'Nowhere FM'")
        XCTAssertEqual(controller.perform(.favorite).error, "no station is tuned")
        XCTAssertEqual(controller.perform(.simIR(key: "KEY_NOSUCH", repeats: 0)).error,
                       "sim_ir needs a key the kernel knows, e.g. KEY_VOLUMEUP or KEY_1")
        XCTAssertEqual(player.played, [])
    }

    func testStatusIsPublishedToSubscribersOnChange() {
        controller.start(resume: false)
        let seen = Box<[RadioStatus.State]>([])
        let end = controller.subscribe { status in
            seen.update { $0.append(status.state) }
            return true
        }
        turn(65)
        advance(second)
        end()
        _ = controller.perform(.tune("101.5"))
        controller.tick(at: clock)
        XCTAssertEqual(seen.value.first, .idle)
        XCTAssertTrue(seen.value.contains(.tuning))
        XCTAssertEqual(seen.value.last, .connecting)
        XCTAssertEqual(seen.value.filter { $0 == .connecting }.count, 1, "an ended subscription hears nothing more")
    }

    func testASubscriptionEndsWhenItsSubscriberSaysSo() {
        controller.start(resume: false)
        let seen = Box<[RadioStatus.State]>([])
        _ = controller.subscribe { status in
            seen.update { $0.append(status.state) }
            return seen.value.count < 2
        }
        turn(65)
        advance(second)
        _ = controller.perform(.tune("101.5"))
        XCTAssertEqual(seen.value.count, 2, "nothing after the subscriber refused a status")
    }

    /// A station that retitles every second (a hostile one, or a clock in the title) records at most one
    /// song a station every 10 s: the title standing when its 10 s are up, so a song that stays is kept.
    func testAStationRetitlingEverySecondRecordsAtMostOneSongEveryTenSeconds() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for n in 0..<60 {
            player.hear("Title \(n)", at: start.timeIntervalSince1970 + Double(n))
            advance(second)
        }
        player.hear("The song that stays", at: start.timeIntervalSince1970 + 60)
        advance(15 * second)
        controller.shutdown()
        let songs = try database.songHistory(limit: 1000).reversed().map { $0 }
        XCTAssertGreaterThanOrEqual(songs.count, 6, "\(songs.map(\.title))")
        XCTAssertLessThanOrEqual(songs.count, 8, "\(songs.map(\.title))")
        for (earlier, later) in zip(songs, songs.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.heardAt.timeIntervalSince(earlier.heardAt), 10, "\(earlier.title) → \(later.title)")
        }
        XCTAssertEqual(songs.first?.title, "Title 0")
        XCTAssertEqual(songs.last?.title, "The song that stays")
    }

    /// Song history reaches the SD card at most once a minute: a title after a quiet minute at once,
    /// later ones with the next write a minute on, and what is still pending when the radio stops.
    func testSongHistoryIsWrittenAtMostOnceAMinuteAndAllOfItAtShutdown() throws {
        controller.start(resume: false)
        _ = controller.perform(.tune("101.5"))
        func titles() throws -> [String] { try database.songHistory().map(\.title) }
        player.hear("First")
        advance(second)
        XCTAssertEqual(try titles(), ["First"], "nothing written for a minute: at once")
        advance(20 * second)
        player.hear("Second")
        advance(second)
        XCTAssertEqual(try titles(), ["First"], "within the minute: held")
        advance(35 * second)
        XCTAssertEqual(try titles(), ["First"], "56 s after the first write")
        advance(5 * second)
        XCTAssertEqual(try titles(), ["Second", "First"], "a minute after the last write")
        advance(20 * second)
        player.hear("Third")
        advance(second)
        XCTAssertEqual(try titles(), ["Second", "First"])
        controller.shutdown()
        XCTAssertEqual(try titles(), ["Third", "Second", "First"], "written on the way down")
    }
}

/// A value shared with callbacks on other threads.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
