import XCTest
@testable import Audio

/// The dB-linear curve and where the mixer lives, pure: on the host.
final class MixerVolumeCurveTests: XCTestCase {
    func testEqualStepsInDecibelsOverSixtyDecibelsOrTheControlsRange() {
        let wide = -102.0...4.0
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 1, range: wide), 4)
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.5, range: wide)!, -26, accuracy: 1e-9)
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.01, range: wide)!, 4 - 59.4, accuracy: 1e-9)
        // Each percent the same step: what each detent sounds like does not depend on where the knob is.
        let steps = stride(from: 0.02, through: 1, by: 0.02).map { MixerVolumeCurve.decibels(forLevel: $0, range: wide)! }
        for (lower, upper) in zip(steps, steps.dropFirst()) { XCTAssertEqual(upper - lower, 1.2, accuracy: 1e-9) }
        let narrow = -45.0...0.0
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.5, range: narrow)!, -22.5, accuracy: 1e-9)
        XCTAssertNil(MixerVolumeCurve.decibels(forLevel: 0, range: narrow), "0 % mutes")
        XCTAssertNil(MixerVolumeCurve.decibels(forLevel: -0.5, range: narrow))
        XCTAssertNil(MixerVolumeCurve.decibels(forLevel: .nan, range: narrow))
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 7, range: narrow), 0, "bounded above")
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: .infinity, range: narrow), nil)
    }

    func testTheMixerDeviceIsTheCardOfThePCM() {
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "hw:1,0"), "hw:1")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "plughw:0"), "hw:0")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "plughw:CARD=sndrpihifiberry,DEV=0"), "hw:CARD=sndrpihifiberry")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "sysdefault:CARD=Headphones"), "hw:CARD=Headphones")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "hw:CARD=\"DAC\",DEV=1"), "hw:CARD=DAC")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "default"), "default")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "dmix"), "default")
        XCTAssertEqual(MixerSettings.mixerDevice(forPCM: "hw:"), "default")
    }

    func testAControlNameMayCarryItsIndex() {
        XCTAssertEqual(AlsaMixer.parse("PCM").name, "PCM")
        XCTAssertEqual(AlsaMixer.parse("PCM,1").index, 1)
        XCTAssertEqual(AlsaMixer.parse("PCM,1").name, "PCM")
        XCTAssertEqual(AlsaMixer.parse("A,B").name, "A,B")
        XCTAssertEqual(AlsaMixer.parse("X,99999999999").name, "X,99999999999", "an index past UInt32 is part of the name")
    }

    /// On the host (no sound card) a hardware mixer is a clear error, not a trap.
    func testAMissingCardIsAClearError() {
        XCTAssertThrowsError(try AlsaMixer(device: "hw:31", control: "Master")) { error in
            XCTAssertEqual((error as? AlsaMixer.Failure)?.code, .cannotOpen)
            XCTAssertTrue("\(error)".contains("hw:31"), "\(error)")
        }
    }
}
