import XCTest
@testable import Audio

/// The hardware volume's curve in dB and where the mixer lives, pure: on the host.
final class MixerVolumeCurveTests: XCTestCase {
    func testTheSoftwareVolumesCurveInDecibelsBelowTheControlsMaximumBoundedByItsMinimum() {
        let wide = -102.0...4.0
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 1, range: wide), 4)
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.5, range: wide)!, 4 - 12.04, accuracy: 0.01, "about half as loud")
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.1, range: wide)!, 4 - 40, accuracy: 1e-9)
        // The same ratio as the samples' gain at every level: a radio that changes mixer sounds the same.
        for level in stride(from: 0.05, through: 1, by: 0.05) {
            let software = 20 * log10(Double(Volume.gain(forLevel: level)))
            XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: level, range: wide)! - 4, software, accuracy: 1e-4)
        }
        let narrow = -45.0...0.0
        XCTAssertEqual(MixerVolumeCurve.decibels(forLevel: 0.05, range: narrow), -45, "never below the control's minimum")
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
