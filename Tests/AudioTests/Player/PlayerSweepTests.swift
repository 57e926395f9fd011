import Foundation
import Logging
import WavedialTestSupport
import XCTest
@testable import Audio

/// The sweep stage and tuning ahead, through the real player into alsa-lib's `file` PCM, with a loopback
/// Icecast2 sending a 440 Hz tone.
final class PlayerSweepTests: XCTestCase {
    private var icecast: IcecastServer?

    override func tearDown() {
        icecast?.stop()
    }

    private func makePlayer(_ name: String) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        // Levels are measured against the programme's own: equal loudness off.
        var settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers)
        settings.loudnessTarget = nil
        let player = Player(settings: settings, logger: logger)
        return (player, PlayerRecorder(player), capture.file)
    }

    private func frames(_ file: URL) -> Int { AlsaCapture.samples(in: file).count / 2 }

    /// Waits for `seconds` of audio more than the capture holds now; returns the frame it started at.
    @discardableResult
    private func waitForAudio(_ file: URL, seconds: Double) -> Int {
        let start = frames(file)
        let deadline = Date(timeIntervalSinceNow: seconds + 10)
        while frames(file) < start + Int(seconds * 44_100) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertGreaterThanOrEqual(frames(file), start + Int(seconds * 44_100), "audio keeps coming")
        return start
    }

    private func tone(_ samples: ArraySlice<Int16>) -> Double {
        PCMAnalysis.power(Array(samples), channels: 2, sampleRate: 44_100, frequency: 440)
    }

    /// The level of the left channel's second difference, in dBFS: a high-pass that leaves the hiss and takes
    /// the 440 Hz tone down by 48 dB (and with it the player's fades, which only move the tone's level).
    private func trebleDBFS(_ samples: ArraySlice<Int16>) -> Double {
        let left = stride(from: samples.startIndex, to: samples.endIndex, by: 2).map { Double(samples[$0]) }
        guard left.count > 2 else { return -200 }
        var sum = 0.0
        for index in 2..<left.count {
            let difference = left[index] - 2 * left[index - 1] + left[index - 2]
            sum += difference * difference
        }
        return 10 * log10(max(sum / Double(left.count - 2), 1e-9) / (32_768.0 * 32_768.0))
    }

    /// ``trebleDBFS(_:)`` of the hiss alone at full strength.
    private var fullHissTreble: Double {
        var generator = HissGenerator(sampleRate: 44_100)
        var hiss = [Int16](repeating: 0, count: 44_100 * 2)
        hiss.withUnsafeMutableBufferPointer { generator.fill($0, channels: 2) }
        return trebleDBFS(hiss[...])
    }

    private func rmsDBFS(_ samples: ArraySlice<Int16>) -> Double {
        let mean = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        return 10 * log10(max(mean, 1e-9) / (32_768.0 * 32_768.0))
    }

    func testHalfTheSweepLevelLowersTheToneBySixDecibelsAndAddsHissAndEndingItRestoresTheProgramme() throws {
        icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30))
        let (player, recorder, file) = makePlayer("sweep-level")
        defer { player.shutdown() }
        player.play(PlayableStation(id: "ice", name: "Ice", url: try XCTUnwrap(icecast).url))
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        waitForAudio(file, seconds: 0.5)  // past the burst, live from here
        let before = waitForAudio(file, seconds: 1)
        let beforeEnd = frames(file)
        player.setSweep(level: 0.5)
        waitForAudio(file, seconds: 0.3)  // the ramp, and what was decoded before it
        let during = waitForAudio(file, seconds: 1)
        let duringEnd = frames(file)
        player.setSweep(level: nil)
        waitForAudio(file, seconds: 0.3)
        let after = waitForAudio(file, seconds: 1)
        let afterEnd = frames(file)

        let samples = AlsaCapture.samples(in: file)
        let plain = samples[(before * 2)..<(beforeEnd * 2)]
        let swept = samples[(during * 2)..<(duringEnd * 2)]
        let restored = samples[(after * 2)..<(afterEnd * 2)]
        XCTAssertEqual(10 * log10(tone(swept) / tone(plain)), -6, accuracy: 1, "half the level is −6 dB")
        XCTAssertEqual(trebleDBFS(swept), fullHissTreble - 6, accuracy: 1.5, "half the hiss under the swept station")
        XCTAssertLessThan(rmsDBFS(swept), rmsDBFS(plain), "the hiss is quieter than the programme it replaces")
        XCTAssertEqual(10 * log10(tone(restored) / tone(plain)), 0, accuracy: 0.5, "back at full level")
        XCTAssertLessThan(trebleDBFS(restored), fullHissTreble - 20, "and no hiss")
        XCTAssertLessThan(trebleDBFS(plain), fullHissTreble - 20, "the tone alone has none")
    }

    func testWithNothingTunedTheSweepPlaysQuietHissInRealTimeAndStopsWhenItEnds() throws {
        let (player, _, file) = makePlayer("sweep-hiss")
        defer { player.shutdown() }
        player.setSweep(level: 0)
        let started = Date()
        Thread.sleep(forTimeInterval: 1.5)
        let elapsed = Date().timeIntervalSince(started)
        let hissed = AlsaCapture.samples(in: file)
        XCTAssertGreaterThan(hissed.count / 2, Int(0.5 * 44_100), "hiss while nothing is tuned")
        XCTAssertLessThan(hissed.count / 2, Int((elapsed + 1) * 44_100), "paced like a device, not as fast as it is made")
        XCTAssertEqual(rmsDBFS(hissed[(4_410 * 2)...]), HissGenerator.levelDBFS, accuracy: 1.5)

        player.volume = 0.5
        // The hiss written ahead before the change plays out first (longer on a loaded or emulated machine).
        let deadline = Date().addingTimeInterval(5)
        var quieter = rmsDBFS(AlsaCapture.samples(in: file).suffix(4_410 * 2))
        while abs(quieter - (HissGenerator.levelDBFS - 12)) > 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            quieter = rmsDBFS(AlsaCapture.samples(in: file).suffix(4_410 * 2))
        }
        XCTAssertEqual(quieter, HissGenerator.levelDBFS - 12, accuracy: 2, "the hiss follows the volume")

        player.setSweep(level: nil)
        Thread.sleep(forTimeInterval: 0.5)
        let ended = frames(file)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(frames(file), ended, "no hiss once the sweep ended")
        let last = AlsaCapture.samples(in: file)
        XCTAssertLessThan(rmsDBFS(last.suffix(441 * 2)), rmsDBFS(last.dropLast(4_410 * 2).suffix(4_410 * 2)) - 12,
                          "its last 10 ms are the end of a fade, not hiss cut off")
    }

    func testAStationTunedAheadIsSilentAndPlayAdoptsItsConnection() throws {
        let icecast = try IcecastServer(source: try TestMedia.tone(frequency: 440, seconds: 30))
        self.icecast = icecast
        let (player, recorder, file) = makePlayer("sweep-ahead")
        defer { player.shutdown() }
        let station = PlayableStation(id: "ice", name: "Ice", url: icecast.url)
        player.prepare(station)
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "decoding: \(recorder.states)")
        waitForAudio(file, seconds: 1)
        let connection = try icecast.listenerIDs()
        XCTAssertEqual(connection.count, 1)
        let ahead = frames(file)
        XCTAssertLessThan(tone(AlsaCapture.samples(in: file)[...]), 1, "silent while only tuned ahead")

        player.prepare(station)
        player.pause()  // a pause while the knob turns pauses what is tuned ahead; the rest plays it all the same
        player.play(station)
        XCTAssertEqual(player.status.station, station)
        XCTAssertNotEqual(player.status.state, .paused)
        waitForAudio(file, seconds: 0.3)
        let playing = waitForAudio(file, seconds: 1)
        let samples = AlsaCapture.samples(in: file)
        XCTAssertEqual(PCMAnalysis.frequency(Array(samples[(playing * 2)...]), channels: 2, sampleRate: 44_100), 440, accuracy: 5)
        XCTAssertGreaterThan(playing, ahead)
        XCTAssertEqual(try icecast.listenerIDs(), connection, "play started from the connection made ahead")
    }
}
