import Foundation
import Logging
import WavedialTestSupport
import XCTest
@testable import Audio

/// Equal loudness through the whole player: real Icecast mounts fed programmes at known loudness (pink
/// noise under a swelling chord, ``TestMedia/programme(loudness:frequency:seconds:kbps:)``), played into
/// alsa-lib's `file` PCM, and the capture judged by ffmpeg's `ebur128` filter, never by the player's meter.
final class PlayerLoudnessTests: XCTestCase {
    /// What ffmpeg measured on the capture of each station, in the order the stations were given.
    private func play(_ programmes: [(loudness: Double, frequency: Int)], target: Double?, seconds: Int = 15,
                      line: UInt = #line) throws -> [LoudnessAnalysis] {
        let servers = try programmes.map { programme in
            try IcecastServer(source: try TestMedia.programme(loudness: programme.loudness, frequency: programme.frequency))
        }
        defer { servers.forEach { $0.stop() } }
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        // One player a station, side by side: each captures its own file.
        let runs = servers.enumerated().map { index, server -> (player: Player, recorder: PlayerRecorder, file: URL) in
            let capture = AlsaCapture.device(named: "loudness-\(index)")
            let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers,
                                          loudnessTarget: target)
            let player = Player(settings: settings, logger: logger)
            let recorder = PlayerRecorder(player)
            player.play(PlayableStation(id: "station-\(index)", name: "Station \(index)", url: server.url))
            return (player, recorder, capture.file)
        }
        for run in runs {
            // A generous bound: an emulated arm64 debug build (qemu-user) decodes, meters and limits slowly.
            XCTAssertTrue(run.recorder.wait(timeout: Double(seconds) * 4 + 20) { _ in
                AlsaCapture.samples(in: run.file).count / 2 >= 44100 * seconds
            }, "\(seconds) s of audio: \(run.recorder.states)", line: line)
        }
        runs.forEach { $0.player.shutdown() }
        return try runs.map { try LoudnessAnalysis.measure(rawPCM: $0.file, sampleRate: 44100, channels: 2) }
    }

    func testStationsAtMinus30AndMinus12LUFSEndWithin1Point5LUOfEachOther() throws {
        let measured = try play([(-30, 220), (-12, 330)], target: -23)
        XCTAssertLessThanOrEqual(abs(measured[0].integrated - measured[1].integrated), 1.5, "\(measured)")
        for analysis in measured {
            XCTAssertEqual(analysis.integrated, -23, accuracy: 1.5, "\(measured)")
            XCTAssertLessThanOrEqual(analysis.truePeak, -1, "no true-peak overs: \(measured)")
        }
    }

    func testOffLeavesEachStationAtItsOwnLevel() throws {
        let measured = try play([(-30, 220), (-12, 330)], target: nil)
        XCTAssertEqual(measured[0].integrated, -30, accuracy: 1.0, "\(measured)")
        XCTAssertEqual(measured[1].integrated, -12, accuracy: 1.0, "\(measured)")
    }

    /// A station whose loudness the player was given (as the daemon gives it what it stored) plays at the
    /// target from its first second, and the player reports what it measures, once more when it stops.
    func testARememberedStationStartsAtTheTargetAndItsMeasurementsAreReported() throws {
        let server = try IcecastServer(source: try TestMedia.programme(loudness: -35, steady: true))
        defer { server.stop() }
        let capture = AlsaCapture.device(named: "loudness-remembered")
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: capture.device), source: .loopbackPeers),
                            logger: logger)
        let reports = LockedReports()
        let observation = player.observeLoudness { reports.append($0) }
        defer { observation.cancel() }
        player.rememberLoudness(["quiet": -35, "other": .nan])
        let recorder = PlayerRecorder(player)
        let station = PlayableStation(id: "quiet", name: "Quiet", url: server.url)
        player.play(station)
        XCTAssertTrue(recorder.wait(timeout: 40) { _ in !reports.all.isEmpty }, "a report after 10 s of audio")
        player.stop()
        XCTAssertTrue(recorder.wait(timeout: 5) { _ in reports.all.last?.isLast == true }, "\(reports.all)")
        player.shutdown()
        for report in reports.all {
            XCTAssertEqual(report.station, station)
            XCTAssertEqual(report.integratedLUFS, -35, accuracy: 1)
            XCTAssertGreaterThanOrEqual(report.measuredSeconds, 10)
        }
        let start = try LoudnessAnalysis.measure(rawPCM: capture.file, sampleRate: 44100, channels: 2, seconds: 1.5)
        XCTAssertEqual(start.integrated, -23, accuracy: 1.5, "the first 1.5 s: \(start)")
    }

    /// A target whose peaks would pass full scale: the limiter holds them under -1 dBTP, the loudness
    /// still reaches about the target.
    func testAHotTargetIsLimitedBelowMinus1DBTP() throws {
        let measured = try play([(-20, 262)], target: -10)
        XCTAssertLessThanOrEqual(measured[0].truePeak, -1, "\(measured)")
        XCTAssertEqual(measured[0].integrated, -10, accuracy: 2, "\(measured)")
    }
}

/// Loudness reports collected from the audio thread.
private final class LockedReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [LoudnessReport] = []

    func append(_ report: LoudnessReport) { lock.withLock { reports.append(report) } }
    var all: [LoudnessReport] { lock.withLock { reports } }
}
