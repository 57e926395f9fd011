import CurlSupport
import Threads
import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// The player when its ALSA device goes away and comes back (a USB DAC pulled and plugged in again),
/// through alsa-lib's external plugin `Tests/Fixtures/alsa-fault/wdfault.c` (``UnpluggableAlsaDevice``).
final class PlayerDeviceLossTests: XCTestCase {
    private var server: MisbehavingServer!
    private var device: UnpluggableAlsaDevice!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
        device = try UnpluggableAlsaDevice(named: "player")
    }

    override func tearDown() {
        server.stop()
        device.remove()
    }

    private func makePlayer(startTimeout: Double = 5, clock: PlayerClock = MonotonicClock()) -> (Player, PlayerRecorder) {
        let settings = PlayerSettings(
            output: AlsaOutputSettings(device: device.device),
            source: StreamSourceSettings(connectTimeout: 2, stallTimeout: 3, allowedAddresses: IPNetwork.loopback),
            deviceRetry: Backoff(initialDelay: 0.05, fastCap: 0.2, fastWindow: 60, maximumDelay: 1),
            startTimeout: startTimeout)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: settings, logger: logger, clock: clock)
        return (player, PlayerRecorder(player))
    }

    private static func isDeviceLost(_ state: PlayerState) -> Bool {
        if case .failed(let failure, willRetry: true) = state { return failure.code == .outputFailed }
        return false
    }

    func testADevicePulledWhilePlayingIsReportedAndPlaysAgainOnceBack() throws {
        let (player, recorder) = makePlayer()
        defer { player.shutdown() }
        player.play(PlayableStation(id: "plain", name: "plain", url: server.url("/plain.mp3")))
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in self.device.samples.count > 44_100 }, "states: \(recorder.states)")

        device.unplug()
        XCTAssertTrue(recorder.waitForState(timeout: 5, Self.isDeviceLost), "states: \(recorder.states)")
        // Several re-open attempts fail while it is out (0.05 s doubling to 0.2 s); nothing is played, nothing ends.
        let heardBefore = device.samples.count
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertEqual(device.samples.count, heardBefore, "nothing reaches a device that is not there")
        XCTAssertTrue(Self.isDeviceLost(player.status.state), "still lost, still retrying: \(player.status.state)")

        let statesBefore = recorder.states.count
        device.plugIn()
        XCTAssertTrue(recorder.wait(timeout: 5) { $0.states.dropFirst(statesBefore).contains(.playing) }, "states: \(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in self.device.samples.count > heardBefore + 2 * 44_100 * 2 })
        let after = Array(device.samples[heardBefore...])
        XCTAssertEqual(PCMAnalysis.frequency(after, channels: 2, sampleRate: 44_100), 440, accuracy: 5)
        XCTAssertFalse(recorder.states.contains { if case .failed(_, willRetry: false) = $0 { return true } else { return false } },
                       "the station never failed for good: \(recorder.states)")
    }

    func testADeviceMissingAtTheStartIsWaitedForLongerThanTheStartTimeout() throws {
        device.unplug()
        let clock = ManualClock()
        let (player, recorder) = makePlayer(startTimeout: 1.5, clock: clock)
        defer { player.shutdown() }
        player.play(PlayableStation(id: "plain", name: "plain", url: server.url("/plain.mp3")))
        XCTAssertTrue(recorder.waitForState(timeout: 5, Self.isDeviceLost), "states: \(recorder.states)")
        // Past the start timeout, by many re-open attempts (the last 1 s apart): a missing device is not a dead station.
        for _ in 0..<10 {
            clock.advance(by: 1)
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(Self.isDeviceLost(player.status.state), "\(recorder.states)")
        XCTAssertTrue(device.samples.isEmpty)

        device.plugIn()
        clock.advance(by: 1)  // the next re-open is due
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0 == .playing }, "states: \(recorder.states)")
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in self.device.samples.count > 2 * 44_100 * 2 })
        XCTAssertEqual(PCMAnalysis.frequency(device.samples, channels: 2, sampleRate: 44_100), 440, accuracy: 5)
    }

    func testPausedWhileTheDeviceIsLostStaysPausedAndResumesOnceBack() throws {
        let (player, recorder) = makePlayer()
        defer { player.shutdown() }
        player.play(PlayableStation(id: "plain", name: "plain", url: server.url("/plain.mp3")))
        XCTAssertTrue(recorder.waitForState(timeout: 10) { $0 == .playing }, "states: \(recorder.states)")
        device.unplug()
        XCTAssertTrue(recorder.waitForState(timeout: 5, Self.isDeviceLost), "states: \(recorder.states)")
        player.pause()
        XCTAssertEqual(player.status.state, .paused)
        device.plugIn()
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(player.status.state, .paused, "a device coming back does not end a pause")
        let heard = device.samples.count
        player.resume()
        XCTAssertTrue(recorder.wait(timeout: 10) { _ in self.device.samples.count > heard + 44_100 * 2 }, "states: \(recorder.states)")
    }
}
