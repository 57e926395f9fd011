import WavedialTestSupport
import XCTest
@testable import Audio

/// The simulator's output without a sound card: a real ALSA device (alsa-lib's external plugin
/// `Tests/Fixtures/alsa-fault/wdfault.c`, ``UnpluggableAlsaDevice``) that is missing at first, then plugged in,
/// then pulled out again, behind ``SilenceFallbackOutput``.
final class SilenceFallbackOutputTests: XCTestCase {
    private var device: UnpluggableAlsaDevice!
    /// The fallback's clock for its retries, moved by hand.
    private var now = 100.0
    private let format = PCMFormat(sampleRate: 44_100, channels: 2)

    override func setUpWithError() throws {
        device = try UnpluggableAlsaDevice(named: "fallback")
    }

    override func tearDown() {
        device.remove()
    }

    private func makeOutput() -> (SilenceFallbackOutput, () -> [AudioOutputRoute]) {
        let output = SilenceFallbackOutput(
            device: AlsaOutput(settings: AlsaOutputSettings(device: device.device)), deviceName: "usb-dac",
            silence: NullAudioOutput(bufferSeconds: 0.2), retrySeconds: 3, clock: { [unowned self] in now })
        var routes: [AudioOutputRoute] = []
        output.onRouteChange = { routes.append($0) }
        return (output, { routes })
    }

    /// `seconds` of a full-scale square wave, interleaved stereo.
    private func write(_ output: SilenceFallbackOutput, seconds: Double) throws {
        let frames = format.frames(seconds: seconds)
        let samples = (0..<frames * 2).map { Int16(($0 / 2) % 100 < 50 ? 8_000 : -8_000) }
        try samples.withUnsafeBufferPointer { try output.write($0) }
    }

    func testWithoutTheDeviceItPlaysInSilenceAndSaysWhy() throws {
        device.unplug()
        let (output, routes) = makeOutput()
        XCTAssertNoThrow(try output.open(format: format), "a missing device is no failure")
        XCTAssertEqual(output.format, format)
        guard case .noDevice(let reason) = output.route else { return XCTFail("route \(output.route)") }
        XCTAssertTrue(reason.hasPrefix("usb-dac: snd_pcm_open"), reason)
        XCTAssertEqual(routes().count, 1)

        try write(output, seconds: 0.1)
        try write(output, seconds: 0.1)
        XCTAssertEqual(output.framesWritten, Int64(format.frames(seconds: 0.1) * 2))
        XCTAssertGreaterThan(output.delayFrames, 0, "the silence plays in real time, not at once")
        XCTAssertTrue(device.samples.isEmpty)
        XCTAssertEqual(routes().count, 1, "said once, not at every write")
    }

    func testADevicePluggedInLaterIsUsedWithoutAReopenAndTheFrameCountGoesOn() throws {
        device.unplug()
        let (output, routes) = makeOutput()
        try output.open(format: format)
        try write(output, seconds: 0.1)
        device.plugIn()
        try write(output, seconds: 0.05)
        XCTAssertTrue(device.samples.isEmpty, "tried again only when the retry is due")

        now += 3
        try write(output, seconds: 0.1)
        XCTAssertEqual(output.route, .device("usb-dac"))
        XCTAssertEqual(routes().last, .device("usb-dac"))
        XCTAssertEqual(device.samples.count, format.frames(seconds: 0.1) * 2, "the write after the card came went to it")
        XCTAssertEqual(output.framesWritten, Int64(format.frames(seconds: 0.25)), "frames count on across the switch")
    }

    func testADevicePulledOutFallsBackToSilenceWithoutAFailure() throws {
        let (output, routes) = makeOutput()
        try output.open(format: format)
        XCTAssertEqual(output.route, .device("usb-dac"))
        try write(output, seconds: 0.1)
        XCTAssertEqual(device.samples.count, format.frames(seconds: 0.1) * 2)

        device.unplug()
        XCTAssertNoThrow(try write(output, seconds: 0.1))
        guard case .noDevice = output.route else { return XCTFail("route \(output.route)") }
        XCTAssertEqual(output.format, format, "the silence plays on in the same format")
        XCTAssertEqual(routes().count, 1)
        XCTAssertGreaterThanOrEqual(output.framesWritten, Int64(format.frames(seconds: 0.1)))
    }

    func testTheConfiguredNullDeviceIsPacedInRealTimeAndSaidSo() throws {
        let player = Player(settings: PlayerSettings(output: AlsaOutputSettings(device: "null")))
        defer { player.shutdown() }
        XCTAssertTrue(player.output is NullAudioOutput, "ALSA's null PCM never blocks")
        XCTAssertEqual(player.status.output, .configuredSilence)
        XCTAssertEqual(player.status.output.name, "none")
    }
}
