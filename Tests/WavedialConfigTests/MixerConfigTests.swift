import Audio
import WavedialConfig
import XCTest

/// `[audio] mixer`, `mixer_control`, `mixer_device`: the samples' volume, or a card's control.
final class MixerConfigTests: XCTestCase {
    func testSoftwareByDefaultAndHardwareOnTheCardOfTheDevice() throws {
        XCTAssertEqual(try Configuration.parse("").audio.mixer, .software)
        XCTAssertEqual(try Configuration.parse("[audio]\nmixer = \"software\"\nmixer_control = \"PCM\"").audio.mixer, .software)
        XCTAssertEqual(try Configuration.parse("[audio]\ndevice = \"plughw:CARD=sndrpihifiberry,DEV=0\"\nmixer = \"hardware\"\nmixer_control = \"Digital\"").audio.mixer,
                       .hardware(control: "Digital", device: "hw:CARD=sndrpihifiberry"))
        XCTAssertEqual(try Configuration.parse("[audio]\nmixer = \"hardware\"\nmixer_control = \"PCM,1\"\nmixer_device = \"hw:2\"").audio.mixer,
                       .hardware(control: "PCM,1", device: "hw:2"))
        XCTAssertEqual(try Configuration.parse("[audio]\nmixer = \"hardware\"\nmixer_control = \"Master\"").audio.mixer,
                       .hardware(control: "Master", device: "default"))
    }

    func testProblemsAreReportedByKeyAndLine() {
        let cases = [
            ("mixer = \"alsa\"", "'audio.mixer' must be one of \"software\", \"hardware\""),
            ("mixer = \"hardware\"", "'audio.mixer_control' must name the card's volume control"),
            ("mixer = \"hardware\"\nmixer_control = \"\"", "'audio.mixer_control' must name"),
            ("mixer = \"hardware\"\nmixer_control = \"Digi\\u001Btal\"", "'audio.mixer_control' must name"),
            ("mixer = \"hardware\"\nmixer_control = \"\(String(repeating: "x", count: 49))\"", "'audio.mixer_control' must name"),
            ("mixer = \"hardware\"\nmixer_control = \"PCM\"\nmixer_device = \"\"", "'audio.mixer_device' must name an ALSA mixer device"),
            ("mixer = 1", "'audio.mixer'"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try Configuration.parse("[audio]\n" + text, source: "test.toml"), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }
}
