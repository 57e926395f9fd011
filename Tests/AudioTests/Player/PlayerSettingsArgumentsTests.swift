import CurlSupport
import Threads
import XCTest
@testable import Audio

/// The settings `wavedial play-url` hands to `wavedial-player`: every one arrives as it was.
final class PlayerSettingsArgumentsTests: XCTestCase {
    func testEverySettingSurvivesTheTripThroughArguments() throws {
        var settings = PlayerSettings()
        settings.output = AlsaOutputSettings(device: "plug:'dmix:CARD=1' -- odd", bufferSeconds: 0.35, periodSeconds: 0.07)
        settings.source.connectTimeout = 7.5
        settings.source.stallTimeout = 4.25
        settings.source.maximumRedirects = 9
        settings.source.userAgent = "Wavedial/1.0 (test) --volume 0"
        settings.reconnect = Backoff(initialDelay: 0.3, fastCap: 0.6, fastWindow: 45, maximumDelay: 12)
        settings.deviceRetry = Backoff(initialDelay: 0.2, fastCap: 2, fastWindow: 30, maximumDelay: 7)
        settings.prebufferSeconds = 0.123456789
        settings.maximumLeadSeconds = 42
        settings.timeShiftSeconds = 0
        settings.startTimeout = 1.0 / 3.0
        settings.fadeSeconds = 0.05
        settings.volume = 0.1 + 0.2
        settings.source.allowedAddresses = [IPNetwork("127.0.0.0/8")!, IPNetwork("fd00::/8")!, IPNetwork("192.168.1.20")!]
        settings.loudnessTarget = -18.25
        XCTAssertNotEqual(settings, PlayerSettings())
        XCTAssertEqual(try PlayerSettings(arguments: settings.arguments), settings)
        settings.loudnessTarget = nil
        XCTAssertEqual(try PlayerSettings(arguments: settings.arguments), settings, "loudness off")
        XCTAssertEqual(try PlayerSettings(arguments: PlayerSettings().arguments), PlayerSettings())
        XCTAssertEqual(try PlayerSettings(arguments: []), PlayerSettings(), "a setting left out keeps its default")
    }

    func testUnknownSettingsMissingAndBadValuesAreRefusedByName() {
        for (arguments, message) in [
            (["--bogus", "1"], "unknown setting --bogus"),
            (["--volume"], "--volume needs a value"),
            (["--volume", "loud"], "--volume needs a number, not loud"),
            (["--volume", "nan"], "--volume needs a number, not nan"),
            (["--max-redirects", "2.5"], "--max-redirects needs a whole number, not 2.5"),
            (["--loudness-target", "-5"], "--loudness-target needs a loudness from -40 to -10 LUFS or off, not -5"),
            (["--loudness-target", "nan"], "--loudness-target needs a loudness from -40 to -10 LUFS or off, not nan"),
            (["--loudness-target", "Off"], "--loudness-target needs a loudness from -40 to -10 LUFS or off, not Off"),
            (["--allowed-addresses", "10.0.0.0/8,localhost"], "--allowed-addresses needs addresses or ranges (10.0.0.0/8), not localhost"),
        ] {
            XCTAssertThrowsError(try PlayerSettings(arguments: arguments)) {
                XCTAssertEqual(($0 as? PlayerSettings.ArgumentError)?.description, message)
            }
        }
    }
}
