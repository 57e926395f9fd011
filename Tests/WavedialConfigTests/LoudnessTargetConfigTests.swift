import WavedialConfig
import XCTest

/// `[audio] loudness_target`: the loudness every station is brought to, or "off".
final class LoudnessTargetConfigTests: XCTestCase {
    func testATargetInLUFSOrOff() throws {
        XCTAssertEqual(try Configuration.parse("").audio.loudnessTarget, -23, "EBU R128's level by default")
        XCTAssertEqual(try Configuration.parse("[audio]\nloudness_target = -16").audio.loudnessTarget, -16)
        XCTAssertEqual(try Configuration.parse("[audio]\nloudness_target = -18.5").audio.loudnessTarget, -18.5)
        XCTAssertNil(try Configuration.parse("[audio]\nloudness_target = \"off\"").audio.loudnessTarget)
    }

    func testAnythingElseIsReportedByKeyAndLineWithWhatIsAllowed() {
        for value in ["-60", "0", "-9.9", "12", "\"loud\"", "\"OFF\"", "\"\"", "true", "[-23]", "nan", "-inf"] {
            XCTAssertThrowsError(try Configuration.parse("[audio]\n\nloudness_target = \(value)", source: "test.toml"), value) { error in
                XCTAssertTrue("\(error)".contains("line 3: 'audio.loudness_target' must be a loudness in LUFS from -40 to -10"),
                              "\(value): \(error)")
                XCTAssertTrue("\(error)".contains("or \"off\""), "\(value): \(error)")
            }
        }
    }
}
