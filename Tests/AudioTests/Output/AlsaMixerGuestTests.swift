import Foundation
import XCTest
@testable import Audio

/// The hardware mixer against a real card with mixer controls: the kernel's `snd-dummy` in the gpio-vm
/// guest (scripts/test.d/gpio-vm), whose "Master" spans −45 to 0 dB in 0.3 dB steps and has no playback
/// switch. What the card holds is read back with `amixer`, not through the wrapper. On the host (no
/// card) these tests skip; in the guest a skip is a failure.
final class AlsaMixerGuestTests: XCTestCase {
    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs the kernel's snd-dummy: run inside the VM (scripts/test.d/gpio-vm)")
        }
    }

    /// `amixer` run to completion; its standard output.
    private func amixer(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/amixer")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The dB values `amixer sget` prints for each channel of `control` ("[-22.50dB]").
    private func decibels(_ control: String) throws -> [Double] {
        try amixer(["-D", "hw:0", "sget", control]).split(separator: "\n").compactMap { line -> Double? in
            guard line.contains(":"), let end = line.range(of: "dB]"),
                  let open = line[..<end.lowerBound].lastIndex(of: "[") else { return nil }
            return Double(line[line.index(after: open)..<end.lowerBound])
        }
    }

    func testTheVolumeSetsTheControlAlongTheDecibelCurve() throws {
        let mixer = try AlsaMixer(device: "hw:0", control: "Master")
        XCTAssertEqual(mixer.range, -45...0)
        for level in [1.0, 0.5, 0.26, 0.02, 0.9] {
            try mixer.setVolume(level)
            let expected = MixerVolumeCurve.decibels(forLevel: level, range: mixer.range)!
            let read = try decibels("Master")
            XCTAssertEqual(read.count, 2, "both channels: \(read)")
            for value in read { XCTAssertEqual(value, expected, accuracy: 0.15, "\(level): the nearest 0.3 dB step") }
        }
        try mixer.setVolume(0)
        XCTAssertEqual(try decibels("Master"), [-45, -45], "0 %: the control's minimum")
    }

    func testAMissingControlIsAnErrorNamingTheCardsControls() throws {
        XCTAssertThrowsError(try AlsaMixer(device: "hw:0", control: "Digital")) { error in
            guard let failure = error as? AlsaMixer.Failure else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .noSuchControl)
            for name in ["Master", "Synth", "Line", "CD", "Mic"] {
                XCTAssertTrue(failure.volumeControls.contains(name), "\(failure.volumeControls)")
                XCTAssertTrue(failure.description.contains("\"\(name)\""), failure.description)
            }
            XCTAssertTrue(failure.description.contains("'Digital'"), failure.description)
        }
        XCTAssertThrowsError(try AlsaMixer(device: "hw:0", control: "Master,3"), "index 3 does not exist")
    }

    /// Under the hardware mixer the player sets the card and leaves the samples at unity (silent at 0 %).
    func testThePlayerSetsTheCardAndKeepsTheSamplesAtUnity() throws {
        let mixer = try AlsaMixer(device: "hw:0", control: "Master")
        var settings = PlayerSettings(volume: 0.5)
        settings.mixer = .hardware(control: "Master", device: "hw:0")
        let player = Player(settings: settings, output: NullAudioOutput(), mixer: mixer)
        defer { player.shutdown() }
        XCTAssertEqual(try decibels("Master").first ?? 0, -12.04, accuracy: 0.15, "the saved volume reaches the card at start")
        XCTAssertEqual(player.sampleGain, 1)
        player.volume = 0.8
        XCTAssertEqual(try decibels("Master").first ?? 0, -3.88, accuracy: 0.15)
        XCTAssertEqual(player.sampleGain, 1)
        player.volume = 0
        XCTAssertEqual(player.sampleGain, 0)
        XCTAssertEqual(try decibels("Master").first ?? 0, -45, accuracy: 0.15)
    }
}
