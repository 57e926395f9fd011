import WavedialTestSupport
import XCTest

import Display
import Hardware
import WavedialConfig
import WavedialCore

/// hardware/pinmap.toml, the source of WIRING.md and the wiring diagram, against the defaults in code.
final class PinMapTests: XCTestCase {
    /// Every GPIO signal of the pin map, by part.
    private static let gpioSignals = [
        "encoder": ["a", "b", "push"],
        "volume_encoder": ["a", "b", "push"],
        "buttons": ["play", "pause", "back", "forward", "favorite"],
        "lcd_i2c": ["sda", "scl"],
        "lcd_gpio": ["rs", "e", "d4", "d5", "d6", "d7", "backlight"],
        "dac": ["bclk", "lrclk", "din", "dout"],
        "ir": ["out"],
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

    /// Every config key of the pin map, written into a config file with the pin map's numbers, reads back as
    /// the defaults: so the keys exist and name the same lines the code uses when the file is empty.
    func testConfigKeysOfThePinMapReadBackAsTheDefaults() throws {
        var tables: [String: [String]] = [:]
        for (part, names) in Self.gpioSignals {
            for name in names {
                let key = signal(part, name).optionalString("config") ?? ""
                guard !key.isEmpty else { continue }
                let dot = try XCTUnwrap(key.lastIndex(of: "."), key)
                tables[String(key[..<dot]), default: []].append("\(key[key.index(after: dot)...]) = \(try gpio(part, name))")
            }
        }
        XCTAssertEqual(Set(tables.keys), ["display.gpio", "hardware.encoder", "hardware.buttons", "hardware.volume_encoder"])
        XCTAssertEqual(tables.values.map(\.count).reduce(0, +), 7 + 3 + 5 + 3)
        let text = tables.sorted { $0.key < $1.key }.map { "[\($0.key)]\n" + $0.value.joined(separator: "\n") }
            .joined(separator: "\n")
        // The volume knob's table turns it on: with the pin map's pins it is the volume knob's defaults.
        var expected = Configuration()
        expected.hardware.volumeKnob = InputSettings.VolumeKnob()
        XCTAssertEqual(try Configuration.parse(text), expected)

        let moved = text.replacingOccurrences(of: "play = 5", with: "play = 14")
        XCTAssertNotEqual(moved, text)
        XCTAssertNotEqual(try Configuration.parse(moved), expected)
    }

    func testI2CBackpackIsOnTheDefaultBusAndAddress() throws {
        let display = Configuration().display
        XCTAssertEqual(display.bus, "/dev/i2c-1", "I2C1 is the bus on GPIO2/GPIO3")
        XCTAssertEqual(try gpio("lcd_i2c", "sda"), 2)
        XCTAssertEqual(try gpio("lcd_i2c", "scl"), 3)
        XCTAssertEqual(parts.section("lcd_i2c").optionalInt("address"), Int(display.address))
    }

    func testEncoderAndButtonsAreTheHardwareDefaults() throws {
        let hardware = Configuration().hardware
        XCTAssertEqual(GPIOLineID.offset(UInt32(try gpio("encoder", "a"))), hardware.encoder.a)
        XCTAssertEqual(GPIOLineID.offset(UInt32(try gpio("encoder", "b"))), hardware.encoder.b)
        XCTAssertEqual(GPIOLineID.offset(UInt32(try gpio("encoder", "push"))), hardware.encoder.push)
        let knob = InputSettings.VolumeKnob().encoder
        XCTAssertEqual(try ["a", "b", "push"].map { GPIOLineID.offset(UInt32(try gpio("volume_encoder", $0))) },
                       [knob.a, knob.b, knob.push])
        XCTAssertEqual(knob.bias, .pullUp)
        XCTAssertEqual(hardware.buttons.map(\.name), Self.gpioSignals["buttons"])
        for button in hardware.buttons {
            XCTAssertEqual(GPIOLineID.offset(UInt32(try gpio("buttons", button.name))), button.line, button.name)
        }
        // Internal pull-ups, contacts to ground: what WIRING.md tells people to wire.
        XCTAssertEqual(hardware.encoder.bias, .pullUp)
        XCTAssertEqual(hardware.buttonBias, .pullUp)
        XCTAssertTrue(hardware.buttonsActiveLow)
        for part in ["encoder", "volume_encoder", "buttons"] {
            for name in Self.gpioSignals[part]! {
                XCTAssertEqual(signal(part, name).optionalString("bias"), "pull-up", "\(part).\(name)")
            }
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
        for part in ["encoder", "volume_encoder", "buttons"] {
            for name in Self.gpioSignals[part]! {
                XCTAssertFalse(reserved.contains(try gpio(part, name)), "\(part).\(name) is on an I2C or I2S pin")
            }
        }
        XCTAssertEqual(try Set(Self.gpioSignals["dac"]!.map { try gpio("dac", $0) }), [18, 19, 20, 21])
    }

    /// The IR receiver is the kernel's (no config key): config.txt loads its overlay on the pin map's GPIO,
    /// whose device has the name `[ir] device` looks for by default.
    func testTheIRReceiversOverlayIsOnThePinMapsGPIO() throws {
        let configTxt = try String(contentsOf: ProjectPaths.root.appendingPathComponent("hardware/config.txt"), encoding: .utf8)
        let gpio = try gpio("ir", "out")
        XCTAssertTrue(configTxt.split(separator: "\n").contains("dtoverlay=gpio-ir,gpio_pin=\(gpio),gpio_pull=up"), configTxt)
        XCTAssertEqual(signal("ir", "out").optionalString("bias"), "pull-up")
        XCTAssertFalse([2, 3, 18, 19, 20, 21].contains(gpio))
        XCTAssertEqual(Configuration().ir.device, "gpio_ir_recv", "the gpio-ir overlay's device name")
    }
}
