import WavedialCore
import XCTest

@testable import Supervisor

/// What the radio does for an intent, decided from values: no controller, player or database.
final class IntentDecisionTests: XCTestCase {
    private let jazz = "u-jazz"   // 94.1
    private let talk = "u-talk"   // 94.5
    private let bob = "u-bob"     // 101.5

    private func situation(_ playback: IntentDecision.Playback = .stopped, current: String? = nil, needle: Int = 94_100,
                           history: [String] = [], volume: Int = 40) -> IntentDecision.Situation {
        var walked = StationHistory()
        history.forEach { walked.visit($0) }
        return IntentDecision.Situation(
            playback: playback, current: current, needle: Needle(kHz: needle),
            dial: DialBand(band: .fm, assignments: [jazz: 94_100, talk: 94_500, bob: 101_500]), history: walked,
            favoriteOrder: [bob, jazz], volume: volume)
    }

    private func decide(_ intent: RadioIntent, _ situation: IntentDecision.Situation) -> [IntentDecision.Action]? {
        var situation = situation
        return IntentDecision.decide(intent, in: &situation)
    }

    /// Play resumes a pause, tunes again what stopped, and with nothing tuned the station at the needle.
    func testPlayResumesRetunesOrTunesTheStationAtTheNeedle() {
        XCTAssertEqual(decide(.play, situation(.paused, current: jazz)), [.resume])
        XCTAssertEqual(decide(.play, situation(.active, current: jazz)), [], "playing already")
        XCTAssertEqual(decide(.play, situation(.stopped, current: jazz)), [.tune(stationuuid: jazz)])
        XCTAssertEqual(decide(.play, situation(needle: 94_400)), [.placeNeedle(kHz: 94_500), .tune(stationuuid: talk)],
                       "between two stations: the nearest")
        XCTAssertEqual(decide(.pause, situation(.active, current: jazz)), [.pause])
        XCTAssertEqual(decide(.pause, situation(.paused, current: jazz)), [], "paused already")
        XCTAssertEqual(decide(.playPause, situation(.active, current: jazz)), [.pause])
        XCTAssertEqual(decide(.playPause, situation(.paused, current: jazz)), [.resume])
    }

    /// Back and forward walk the history and say when there is nowhere to go.
    func testBackAndForwardWalkTheHistory() {
        var walked = situation(.active, current: bob, history: [jazz, talk, bob])
        XCTAssertEqual(IntentDecision.decide(.back, in: &walked), [.tuneFromHistory(stationuuid: talk)])
        XCTAssertEqual(IntentDecision.decide(.back, in: &walked), [.tuneFromHistory(stationuuid: jazz)])
        XCTAssertNil(IntentDecision.decide(.back, in: &walked), "nothing to go back to")
        XCTAssertEqual(IntentDecision.decide(.forward, in: &walked), [.tuneFromHistory(stationuuid: talk)])
        XCTAssertEqual(walked.history.current, talk, "the history comes back moved")
        XCTAssertNil(decide(.forward, situation(history: [jazz])))
    }

    /// Stepping wraps at the band's ends; favorites by number; the volume within 0–100; a favorite needs a station.
    func testStepsFavoritesVolumeAndTheFavoriteButton() {
        XCTAssertEqual(decide(.stepStation(by: 1), situation(needle: 101_500)), [.tune(stationuuid: jazz)], "past the top: the bottom")
        XCTAssertEqual(decide(.stepStation(by: -1), situation(needle: 94_100)), [.tune(stationuuid: bob)])
        XCTAssertEqual(decide(.stepStation(by: 1), situation(needle: 94_300)), [.tune(stationuuid: talk)], "from between two")
        XCTAssertEqual(decide(.favorite(number: 1), situation()), [.tune(stationuuid: bob)])
        XCTAssertNil(decide(.favorite(number: 3), situation()), "no such favorite")
        XCTAssertEqual(decide(.changeVolume(byPercent: 70), situation(volume: 40)), [.setVolume(100)])
        XCTAssertEqual(decide(.changeVolume(byPercent: -1_000), situation(volume: 40)), [.setVolume(0)])
        XCTAssertNil(decide(.toggleFavorite, situation()), "no station is tuned")
        XCTAssertEqual(decide(.toggleFavorite, situation(current: jazz)), [.toggleFavorite])
        XCTAssertEqual(decide(.switchBand, situation()), [.switchBand])
        XCTAssertEqual(decide(.cycleSleepTimer, situation()), [.cycleSleepTimer])
    }
}
