import XCTest
@testable import Audio

final class LoudnessGainComputerTests: XCTestCase {
    /// Feeds `seconds` of audio in 50 ms chunks whose measurement is `integrated(t)`; returns the gain after each.
    private func run(_ computer: inout LoudnessGainComputer, seconds: Double, from start: Double = 0,
                     integrated: (Double) -> Double) -> [Double] {
        var gains: [Double] = []
        var time = start
        while time < start + seconds - 1e-9 {
            time += 0.05
            gains.append(computer.update(integrated: integrated(time), measuredSeconds: time, seconds: 0.05))
        }
        return gains
    }

    func testANewStationStartsAtATypicalRadioLoudnessAndAStoredOneAtItsOwn() {
        XCTAssertEqual(LoudnessGainComputer(target: -23, storedLoudness: nil).gain, -7)
        XCTAssertEqual(LoudnessGainComputer(target: -23, storedLoudness: -30).gain, 7)
        XCTAssertEqual(LoudnessGainComputer(target: -18, storedLoudness: -9).gain, -9)
    }

    func testAQuietStationNeverMeasuredConvergesWithinTenSeconds() {
        var computer = LoudnessGainComputer(target: -23, storedLoudness: nil)
        let gains = run(&computer, seconds: 10) { _ in -30 }
        XCTAssertEqual(gains.last ?? 0, 7, accuracy: 0.1)
        // Most of the way within the first seconds: a settling, not a slow drift.
        XCTAssertEqual(gains[59], 7, accuracy: 1, "after 3 s: \(gains[59])")
    }

    func testAStationLouderThanTheGuessIsTurnedDownWithinASecond() {
        var computer = LoudnessGainComputer(target: -23, storedLoudness: nil)
        let gains = run(&computer, seconds: 1) { _ in -8 }
        XCTAssertEqual(gains.last ?? 0, -15, accuracy: 0.01, "\(gains)")
    }

    func testAStoredLoudnessThatNoLongerHoldsIsCorrectedWithinTenSeconds() {
        var computer = LoudnessGainComputer(target: -23, storedLoudness: -14)
        let gains = run(&computer, seconds: 10) { _ in -30 }
        XCTAssertEqual(gains.last ?? 0, 7, accuracy: 0.5, "\(gains.suffix(5))")
    }

    func testAStoredLoudnessIsNotThrownAwayForAQuietIntro() {
        // Two seconds measuring 8 dB under the stored value, then the station as it was.
        var computer = LoudnessGainComputer(target: -23, storedLoudness: -16)
        let gains = run(&computer, seconds: 2) { _ in -24 }
        XCTAssertLessThan(gains.max() ?? 0, -7 + 3, "a quiet intro moves the gain a few dB at most: \(gains)")
    }

    func testOnceSettledTheGainMovesAtMostOneDBASecond() {
        var computer = LoudnessGainComputer(target: -23, storedLoudness: nil)
        _ = run(&computer, seconds: LoudnessGainComputer.settlingSeconds) { _ in -16 }
        // The measurement drops by 10 dB at once: the gain follows it smoothly, 0.05 dB a 50 ms chunk at most.
        var previous = computer.gain
        let gains = run(&computer, seconds: 20, from: LoudnessGainComputer.settlingSeconds) { _ in -26 }
        for gain in gains {
            XCTAssertLessThanOrEqual(abs(gain - previous), 0.05 + 1e-9)
            previous = gain
        }
        XCTAssertEqual(gains[99], -2, accuracy: 0.1, "1 dB a second")
        XCTAssertEqual(gains.last ?? 0, 3, accuracy: 1e-9)
    }

    func testTheGainStaysWithinItsBounds() {
        var quiet = LoudnessGainComputer(target: -23, storedLoudness: nil)
        XCTAssertEqual(run(&quiet, seconds: 10) { _ in -60 }.last, LoudnessGainComputer.gainRange.upperBound)
        var loud = LoudnessGainComputer(target: -23, storedLoudness: nil)
        XCTAssertEqual(run(&loud, seconds: 10) { _ in 0 }.last, LoudnessGainComputer.gainRange.lowerBound)
        XCTAssertEqual(LoudnessGainComputer(target: -23, storedLoudness: -80).gain, LoudnessGainComputer.gainRange.upperBound)
    }

    func testSilenceAndNonsenseLeaveTheGainFiniteAndWhereItWas() {
        var computer = LoudnessGainComputer(target: -23, storedLoudness: -20)
        for (integrated, measured, seconds) in [(-Double.infinity, 0.0, 0.05), (.nan, 5, 0.05), (-30, .nan, 0.05), (-30, 5, .nan),
                                                (-30, 5, -1), (.infinity, 5, 0.05), (-30, .infinity, 0.05), (-30, 5, .infinity)] {
            let gain = computer.update(integrated: integrated, measuredSeconds: measured, seconds: seconds)
            XCTAssertTrue(gain.isFinite, "\(integrated), \(measured), \(seconds)")
            XCTAssertEqual(gain, -3, "\(integrated), \(measured), \(seconds)")
        }
        XCTAssertEqual(LoudnessGainComputer(target: -23, storedLoudness: .nan).gain, -7, "a stored NaN is no measurement")
        XCTAssertEqual(LoudnessGainComputer(target: .nan, storedLoudness: nil).gain, 0)
    }
}
