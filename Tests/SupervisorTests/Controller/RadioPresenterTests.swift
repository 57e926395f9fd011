import Audio
import Display
import Foundation
import WavedialControl
import WavedialCore
import XCTest

@testable import Supervisor

/// The radio's words and screens from values: the presenter needs no controller, player or clock.
final class RadioPresenterTests: XCTestCase {
    private let jazz = Station(stationuuid: "u-jazz", name: "Jazz FM", url: "http://jazz.example/live")

    private func picture(player: PlayerState = .playing, current: Bool = true) -> RadioPresenter.Picture {
        let dial = DialBand(band: .fm, assignments: ["u-jazz": 94_100])
        return RadioPresenter.Picture(
            band: .fm, dial: dial, mode: .nearby, needle: Needle(kHz: 94_100), nameUnderNeedle: nil,
            current: current ? jazz : nil,
            player: PlayerStatus(state: player, station: nil, title: "A Song", streamName: nil),
            pausedAt: nil, volume: 40, muted: false, volumeShownUntil: 0, favoriteIDs: ["u-jazz"],
            notice: nil, deviceProblem: nil, sleeping: false, sleepRemainingSeconds: nil, nextAlarm: nil,
            nextAlarmText: "Mon 07:00", alarmToneSounding: false)
    }

    func testWhereTheAudioGoesIsReportedAndNoSoundCardShownAsABanner() {
        var nowhere = picture()
        XCTAssertEqual(RadioPresenter.status(of: nowhere).audioOutput, "default")
        XCTAssertNil(RadioPresenter.status(of: nowhere).audioOutputDetail)
        nowhere.audioOutput = .noDevice(reason: "default: snd_pcm_open: No such file or directory\u{1B}[2J")
        nowhere.banner = "No sound card"
        let status = RadioPresenter.status(of: nowhere)
        XCTAssertEqual(status.audioOutput, "none")
        XCTAssertEqual(status.audioOutputDetail, "default: snd_pcm_open: No such file or directory [2J", "cleaned for a terminal")
        XCTAssertEqual(status.state, .playing, "no sound card is no failure")
        XCTAssertNil(status.error)
        XCTAssertEqual(RadioPresenter.viewState(of: nowhere, at: 1, clock: Date(timeIntervalSince1970: 0)).banner, "No sound card")
        nowhere.audioOutput = .configuredSilence
        XCTAssertEqual(RadioPresenter.status(of: nowhere).audioOutput, "none")
        XCTAssertEqual(RadioPresenter.status(of: nowhere).audioOutputDetail, "[audio] device = \"null\": no sound is made")
    }

    func testAPlayingStationIsShownAndReportedWithItsFrequencyAndTitle() {
        let status = RadioPresenter.status(of: picture())
        XCTAssertEqual(status.state, .playing)
        XCTAssertEqual(status.station, .init(stationuuid: "u-jazz", name: "Jazz FM", frequencyMHz: 94.1))
        XCTAssertEqual(status.title, "A Song")
        XCTAssertTrue(status.favorite)
        XCTAssertNil(status.error)
        let view = RadioPresenter.viewState(of: picture(), at: 1, clock: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(view.phase, .playing)
        XCTAssertEqual(view.stationName, "Jazz FM")
        XCTAssertEqual(view.frequency, 94.1)
        XCTAssertEqual(view.nowPlaying, "A Song")
        XCTAssertTrue(view.isFavorite)
        XCTAssertNil(view.volume, "no overlay after its time")
        XCTAssertNil(view.nextAlarm, "the next alarm is on the idle clock only")
    }

    /// While the knob turns: the needle's frequency and the station under it, no title; `tuning` in the status.
    func testTheTurningNeedleShowsItsFrequencyAndTheStationUnderIt() {
        var turning = picture()
        var needle = Needle(kHz: 94_000)
        needle.turn(1, on: .fm, at: 5)
        turning.needle = needle
        turning.nameUnderNeedle = "Jazz FM"
        let view = RadioPresenter.viewState(of: turning, at: 6, clock: Date())
        XCTAssertEqual(view.phase, .tuning)
        XCTAssertEqual(view.frequency ?? 0, 94.1, accuracy: 1e-9)
        XCTAssertNil(view.nowPlaying)
        XCTAssertEqual(RadioPresenter.status(of: turning).state, .tuning)
    }

    /// Failures in the LCD's words: a retry for want of network says so, other retries say "Reconnecting".
    func testFailuresAreTheLCDsWordsAndTheStatusCarriesTheCleanedDetail() {
        let offline = PlayerState.failed(PlaybackFailure(.stationOffline, detail: "HTTP 404\u{1b}[2J"), willRetry: false)
        let status = RadioPresenter.status(of: picture(player: offline))
        XCTAssertEqual(status.state, .failed)
        XCTAssertEqual(status.error, .stationOffline)
        XCTAssertEqual(status.errorDetail, "HTTP 404 [2J", "no control characters")
        let cases: [(PlayerState, DisplayFailure)] = [
            (.failed(PlaybackFailure(.noNetwork, detail: ""), willRetry: true), .noNetwork),
            (.failed(PlaybackFailure(.stationOffline, detail: ""), willRetry: true), .other("Reconnecting")),
            (.failed(PlaybackFailure(.outputFailed, detail: ""), willRetry: true), .audioDevice),
            (.failed(PlaybackFailure(.timedOut, detail: ""), willRetry: false), .noResponse),
        ]
        for (state, words) in cases {
            XCTAssertEqual(RadioPresenter.viewState(of: picture(player: state), at: 1, clock: Date()).phase, .failed(words), "\(state)")
        }
    }

    /// Nothing tuned: idle, the idle clock with the next alarm, or a subsystem's notice; a device that is down
    /// is the status's error.
    func testNothingTunedIsIdleWithTheNextAlarmOrANotice() {
        var idle = picture(player: .idle, current: false)
        XCTAssertEqual(RadioPresenter.status(of: idle).state, .idle)
        XCTAssertEqual(RadioPresenter.viewState(of: idle, at: 1, clock: Date()).nextAlarm, "Mon 07:00")
        idle.notice = "Set location"
        idle.deviceProblem = "LCD offline"
        XCTAssertEqual(RadioPresenter.viewState(of: idle, at: 1, clock: Date()).phase, .failed(.other("Set location")))
        XCTAssertEqual(RadioPresenter.status(of: idle).error, .lcdOffline)
    }

    /// A pause counts its time-shift; a volume change shows its overlay until its time is up.
    func testThePauseCountsAndTheVolumeOverlayShowsForItsTime() {
        var paused = picture(player: .paused)
        paused.pausedAt = 1_000_000_000
        paused.volumeShownUntil = 3_000_000_000
        let view = RadioPresenter.viewState(of: paused, at: 2_500_000_000, clock: Date())
        XCTAssertEqual(view.phase, .paused(timeShift: 1.5))
        XCTAssertEqual(view.volume, 40)
        XCTAssertNil(RadioPresenter.viewState(of: paused, at: 3_000_000_000, clock: Date()).volume)
    }

    func testTheClockRadiosFieldsReachTheStatus() throws {
        var clock = picture()
        clock.sleepRemainingSeconds = 90
        clock.nextAlarm = "2026-11-25T07:00:00+01:00"
        clock.alarmToneSounding = true
        let status = RadioPresenter.status(of: clock)
        XCTAssertEqual(status.sleepRemainingS.value, 90)
        XCTAssertEqual(status.nextAlarm.value, "2026-11-25T07:00:00+01:00")
        XCTAssertEqual(status.alarmTone, true)
        XCTAssertNil(RadioPresenter.status(of: picture()).alarmTone, "absent, not false")
    }
}
