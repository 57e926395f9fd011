import WavedialTestSupport
import XCTest

import Display
import WavedialConfig
import WavedialCore

/// hardware/pinmap.toml, the source of WIRING.md and the wiring diagram, against the defaults in code.
final class PinMapTests: XCTestCase {
    /// Every GPIO signal of the pin map, by part.
    private static let gpioSignals = [
        "encoder": ["a", "b", "push"],
        "buttons": ["play", "pause", "back", "forward", "favorite"],
        "lcd_i2c": ["sda", "scl"],
        "lcd_gpio": ["rs", "e", "d4", "d5", "d6", "d7", "backlight"],
        "dac": ["bclk", "lrclk", "din", "dout"],
    ]

    private var parts: ConfigSection!

    override func setUpWithError() throws {
        let path = ProjectPaths.root.appendingPathComponent("hardware/pinmap.toml").path
        parts = try ConfigFile(path: path).section("parts")
    }

    private func signal(_ part: String, _ name: String) -> ConfigSection {
        parts.section(part).section("signals").section(name)
    }

    private func gpio(_ part: String, _ name: String) throws -> Int {
        try XCTUnwrap(signal(part, name).optionalInt("gpio"), "\(part).\(name) has no gpio")
    }

    func testDirectWiredLCDPinsAreTheDisplayDefaults() throws {
        let pins = Configuration().display.gpioPins
        XCTAssertEqual(try gpio("lcd_gpio", "rs"), pins.registerSelect)
        XCTAssertEqual(try gpio("lcd_gpio", "e"), pins.enable)
        XCTAssertEqual(try ["d4", "d5", "d6", "d7"].map { try gpio("lcd_gpio", $0) }, pins.data)
        XCTAssertEqual(try gpio("lcd_gpio", "backlight"), pins.backlight)
    }

    /// The pin map's config keys, written into a config file with the pin map's numbers, read back as the defaults:
    /// so the keys exist and name the same lines.
    func testDisplayConfigKeysOfThePinMapReadBackAsTheDefaults() throws {
        var lines = ["[display.gpio]"]
        for name in Self.gpioSignals["lcd_gpio"]! {
            let key = try XCTUnwrap(signal("lcd_gpio", name).optionalString("config"))
            XCTAssertEqual(key, "display.gpio.\(name)")
            lines.append("\(name) = \(try gpio("lcd_gpio", name))")
        }
        XCTAssertEqual(try Configuration.parse(lines.joined(separator: "\n")), Configuration())

        var changed = lines
        changed[1] = "rs = 9"
        XCTAssertNotEqual(try Configuration.parse(changed.joined(separator: "\n")).display.gpioPins,
                          Configuration().display.gpioPins)
    }

    func testI2CBackpackIsOnTheDefaultBusAndAddress() throws {
        let display = Configuration().display
        XCTAssertEqual(display.bus, "/dev/i2c-1", "I2C1 is the bus on GPIO2/GPIO3")
        XCTAssertEqual(try gpio("lcd_i2c", "sda"), 2)
        XCTAssertEqual(try gpio("lcd_i2c", "scl"), 3)
        XCTAssertEqual(parts.section("lcd_i2c").optionalInt("address"), Int(display.address))
    }

    /// The `[hardware]` defaults (encoder and buttons), as decided for the input layer.
    func testEncoderAndButtonsHaveTheInputDefaults() throws {
        let expected = [
            ("encoder", "a", 17), ("encoder", "b", 27), ("encoder", "push", 22),
            ("buttons", "play", 5), ("buttons", "pause", 6), ("buttons", "back", 13),
            ("buttons", "forward", 16), ("buttons", "favorite", 26),
        ]
        for (part, name, line) in expected {
            XCTAssertEqual(try gpio(part, name), line, "\(part).\(name)")
            let section = part == "encoder" ? "hardware.encoder" : "hardware.buttons"
            XCTAssertEqual(signal(part, name).optionalString("config"), "\(section).\(name)")
            XCTAssertEqual(signal(part, name).optionalString("bias"), "pull-up", "\(part).\(name)")
        }
    }

    func testNoGPIOIsUsedTwice() throws {
        var users: [Int: String] = [:]
        for (part, names) in Self.gpioSignals {
            for name in names {
                let line = try gpio(part, name)
                XCTAssertNil(users[line], "GPIO\(line) is both \(users[line] ?? "") and \(part).\(name)")
                users[line] = "\(part).\(name)"
            }
        }
        XCTAssertEqual(users.count, Self.gpioSignals.values.map(\.count).reduce(0, +))
    }

    func testInputsLeaveI2CAndTheI2SDACFree() throws {
        let reserved: Set<Int> = [2, 3, 18, 19, 20, 21]
        for part in ["encoder", "buttons"] {
            for name in Self.gpioSignals[part]! {
                XCTAssertFalse(reserved.contains(try gpio(part, name)), "\(part).\(name) is on an I2C or I2S pin")
            }
        }
        XCTAssertEqual(try Set(Self.gpioSignals["dac"]!.map { try gpio("dac", $0) }), [18, 19, 20, 21])
    }
}
