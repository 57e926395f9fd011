import Hardware
import WavedialConfig
import WavedialCore
import XCTest

/// `[hardware.volume_encoder]` (the volume knob: on when the table is there) and push-and-turn's keys in
/// `[hardware.encoder]`.
final class VolumeKnobConfigTests: XCTestCase {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try Configuration.parse(text)
            return []
        } catch {
            return error.problems.map(\.key)
        }
    }

    func testNoVolumeKnobUnlessItsTableIsThereAndPushTurnOnByDefault() throws {
        let hardware = try Configuration.parse("").hardware
        XCTAssertNil(hardware.volumeKnob)
        XCTAssertEqual(hardware.pushTurn?.stepPercent, 2)
        XCTAssertEqual(hardware.pushTurn?.graceNanoseconds, 300_000_000)
    }

    func testAnEmptyTableIsTheVolumeKnobOnItsDefaultPins() throws {
        let knob = try XCTUnwrap(try Configuration.parse("[hardware.volume_encoder]").hardware.volumeKnob)
        XCTAssertEqual(knob, InputSettings.VolumeKnob())
        XCTAssertEqual([knob.encoder.a, knob.encoder.b, knob.encoder.push], [10, 9, 11])
        XCTAssertEqual(knob.stepPercent, 2)
        XCTAssertEqual(knob.encoder.stepsPerDetent, .four)
        XCTAssertTrue(knob.encoder.acceleration.isEnabled)
    }

    func testReadsEveryKeyOfTheVolumeKnobAndOfPushTurn() throws {
        let hardware = try Configuration.parse("""
            [hardware.encoder]
            push_turn = true
            push_turn_step_percent = 5
            push_turn_grace_ms = 500
            [hardware.volume_encoder]
            a = 14
            b = "VOL_B"
            push = -1
            step_percent = 4
            steps_per_detent = 2
            invert = true
            bias = "disabled"
            active_low = true
            acceleration = false
            acceleration_threshold_ms = 100
            acceleration_max_steps = 3
            """).hardware
        let knob = try XCTUnwrap(hardware.volumeKnob)
        XCTAssertEqual(knob.encoder.a, 14)
        XCTAssertEqual(knob.encoder.b, GPIOLineID("VOL_B"))
        XCTAssertNil(knob.encoder.push)
        XCTAssertEqual(knob.stepPercent, 4)
        XCTAssertEqual(knob.encoder.stepsPerDetent, .two)
        XCTAssertTrue(knob.encoder.isInverted)
        XCTAssertEqual(knob.encoder.bias, .disabled)
        XCTAssertTrue(knob.encoder.isActiveLow)
        XCTAssertFalse(knob.encoder.acceleration.isEnabled)
        XCTAssertEqual(knob.encoder.acceleration.thresholdNanoseconds, 100_000_000)
        XCTAssertEqual(knob.encoder.acceleration.maximumStepsPerDetent, 3)
        XCTAssertEqual(hardware.pushTurn?.stepPercent, 5)
        XCTAssertEqual(hardware.pushTurn?.graceNanoseconds, 500_000_000)
        XCTAssertNil(try Configuration.parse("[hardware.encoder]\npush_turn = false").hardware.pushTurn)
    }

    func testBadValuesAndSharedLinesAreReportedByKey() {
        XCTAssertEqual(problems("[hardware.volume_encoder]\nstep_percent = 0"), ["hardware.volume_encoder.step_percent"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\nstep_percent = 26"), ["hardware.volume_encoder.step_percent"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\nsteps_per_detent = 3"), ["hardware.volume_encoder.steps_per_detent"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\na = 5000"), ["hardware.volume_encoder.a"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\nloudness = 3"), ["hardware.volume_encoder.loudness"])
        XCTAssertEqual(problems("[hardware.encoder]\npush_turn_step_percent = 0"), ["hardware.encoder.push_turn_step_percent"])
        XCTAssertEqual(problems("[hardware.encoder]\npush_turn_grace_ms = 5000"), ["hardware.encoder.push_turn_grace_ms"])
        // A line taken twice is an error whichever knob or button takes it.
        XCTAssertEqual(problems("[hardware.volume_encoder]\na = 17"), ["hardware.volume_encoder.a"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\npush = 26"), ["hardware.volume_encoder.push"])
        XCTAssertEqual(problems("[hardware.volume_encoder]\na = 9"), ["hardware.volume_encoder.b"])
    }
}
