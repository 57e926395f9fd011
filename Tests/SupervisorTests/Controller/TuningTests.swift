import WavedialCore
import XCTest

@testable import Supervisor

/// The knob's reducer from values: detents and ticks in, the needle's state and the player's effects out.
final class TuningTests: XCTestCase {
    private let ms: UInt64 = 1_000_000
    private let jazz = "u-jazz"   // 94.1
    private let talk = "u-talk"   // 94.5

    private func context(current: String? = nil, active: Bool = false, paused: Bool = false, sweep: Bool = true) -> Tuning.Context {
        var settings = DialSettings()
        settings.sweep = sweep
        return Tuning.Context(dial: DialBand(band: .fm, assignments: [jazz: 94_100, talk: 94_500]), current: current,
                              isActive: active, isPaused: paused, settings: settings)
    }

    /// A slow turn tunes the station nearest the needle ahead, heard at its level under the needle; the
    /// rest plays it, a play that counts, and the sweep ends.
    func testASlowTurnTunesAheadAndTheRestTunesIt() {
        var tuning = Tuning(needle: Needle(kHz: 93_900))
        let first = tuning.turn(1, at: 1_000 * ms, context())
        XCTAssertEqual(first.first, .prepare(stationuuid: jazz))
        guard case .sweep(let level?) = first.last else { return XCTFail("\(first)") }
        XCTAssertGreaterThan(level, 0)
        XCTAssertEqual(tuning.inPlayer, jazz)
        XCTAssertTrue(tuning.isAhead(of: jazz), "ahead: it plays only once the knob rests")
        let second = tuning.turn(1, at: 1_200 * ms, context())
        XCTAssertEqual(second, [.sweep(level: 1)], "on its frequency: at full, no new connection")
        XCTAssertEqual(tuning.tick(at: 1_300 * ms, context()), [], "not rested yet")
        XCTAssertEqual(tuning.tick(at: 1_600 * ms, context()), [.tune(stationuuid: jazz), .sweep(level: nil)])
        XCTAssertFalse(tuning.needle.isTurning)
        XCTAssertEqual(tuning.needle.kHz, 94_100)
    }

    /// A spin (many channels a detent, or faster than the pace a station's sound needs) tunes nothing ahead:
    /// only hiss.
    func testASpinTunesNothingAheadAndOnlyHisses() {
        var tuning = Tuning(needle: Needle(kHz: 88_000))
        XCTAssertEqual(tuning.turn(30, at: 1_000 * ms, context()), [.sweep(level: 0)])
        XCTAssertEqual(tuning.turn(1, at: 1_010 * ms, context()), [], "still spinning: nothing new")
        XCTAssertNil(tuning.inPlayer)
    }

    /// Resting back on the station that plays, after others were tuned ahead: it plays on, not a new play.
    func testRestingBackOnThePlayingStationPlaysItAgainWithoutANewPlay() {
        var tuning = Tuning(needle: Needle(kHz: 94_100))
        tuning.tuned(jazz)
        let playing = context(current: jazz, active: true)
        XCTAssertEqual(tuning.turn(2, at: 1_000 * ms, playing).first, .prepare(stationuuid: talk))
        _ = tuning.turn(-2, at: 1_100 * ms, playing)
        XCTAssertEqual(tuning.tick(at: 1_600 * ms, playing), [.playAgain(stationuuid: jazz), .sweep(level: nil)])
        XCTAssertFalse(tuning.isAhead(of: jazz))
        // A spin away and back tunes nothing ahead: the rest changes nothing.
        var still = Tuning(needle: Needle(kHz: 94_100))
        still.tuned(jazz)
        let quiet = context(current: jazz, active: true, sweep: false)
        XCTAssertEqual(still.turn(3, at: 1_000 * ms, quiet), [])
        XCTAssertEqual(still.turn(-3, at: 1_050 * ms, quiet), [])
        XCTAssertEqual(still.tick(at: 1_500 * ms, quiet), [])
        XCTAssertEqual(still.needle.kHz, 94_100)
    }

    /// A paused radio only moves its needle; without `[dial] sweep` the station ahead is tuned but not heard.
    func testPausedOnlyTheNeedleMovesAndWithoutTheSweepNothingIsHeardAhead() {
        var paused = Tuning(needle: Needle(kHz: 93_900))
        XCTAssertEqual(paused.turn(1, at: 1_000 * ms, context(current: jazz, paused: true)), [])
        XCTAssertEqual(paused.needle.kHz, 94_000)
        var quiet = Tuning(needle: Needle(kHz: 93_900))
        XCTAssertEqual(quiet.turn(1, at: 1_000 * ms, context(sweep: false)), [.prepare(stationuuid: jazz)])
    }
}
