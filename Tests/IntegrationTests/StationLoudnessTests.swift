import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// A station's loudness through the real daemon: measured while it plays, stored, shown by
/// `wavedial stations show`, and the guess it starts at after a restart.
final class StationLoudnessTests: XCTestCase {
    private let uuid = "00000000-0000-4000-8000-00000000a0d1"

    private func show(_ radio: RadioUnderTest) throws -> [String: Any] {
        let result = try radio.cli.run("stations", "show", uuid, "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(result.json() as? [String: Any])
    }

    func testTheMeasuredLoudnessIsStoredShownAndWhereAStationStartsAfterARestart() throws {
        // Steady programme at -35 LUFS: +12 dB (the most the gain gives) brings it to the -23 target.
        let icecast = try IcecastServer(source: try TestMedia.programme(loudness: -35, steady: true))
        defer { icecast.stop() }
        let radio = try RadioUnderTest(stations: [.init(uuid: uuid, name: "Quiet FM", url: icecast.url)])
        defer { radio.stop() }

        let before = try show(radio)
        XCTAssertTrue(before.keys.contains("loudness_lufs"), "\(before)")
        XCTAssertTrue(before["loudness_lufs"] is NSNull, "null until measured: \(before)")
        XCTAssertTrue(try radio.cli.run("stations", "show", uuid).stdout.contains("not measured yet"))

        try radio.startDaemon()
        // The target is the loudness at full volume (the volume knob comes after); kept for the restart.
        XCTAssertEqual(try radio.cli.run("volume", "100").status, 0)
        radio.tune(uuid)
        // Ten seconds of measured audio make a measurement; the first is written at once.
        radio.waitFor("the loudness stored", timeout: 40) { ((try? self.show(radio))?["loudness_lufs"] as? Double) != nil }
        XCTAssertEqual(try show(radio)["loudness_lufs"] as? Double ?? 0, -35, accuracy: 1)
        let text = try radio.cli.run("stations", "show", uuid).stdout
        XCTAssertNotNil(text.range(of: #"loudness\s+-3[456]\.\d LUFS"#, options: .regularExpression), text)
        XCTAssertEqual(radio.daemon?.terminate(), 0)

        // Started again, the radio resumes the station, at the target from its first second: it starts at its
        // stored loudness.
        try radio.startDaemon()
        radio.waitFor("three seconds of audio") { radio.capturedFrames > 3 * 44_100 }
        let start = try LoudnessAnalysis.measure(rawPCM: radio.capture, sampleRate: 44_100, channels: 2, seconds: 1.5)
        XCTAssertEqual(start.integrated, -23, accuracy: 1.5, "the first 1.5 s: \(start)")
    }
}
