import Hardware
import WavedialConfig
import WavedialCore
import WavedialTestSupport
import XCTest

/// `[ir]` and `[ir.keys]`: the remote off by default, its keys mapped to actions over the defaults, and a bad
/// key name or action a configuration error naming the key and its line.
final class IRConfigTests: XCTestCase {
    private func key(_ name: String) -> KeyCode {
        guard let key = KeyCode(name: name) else { preconditionFailure("no \(name)") }
        return key
    }

    private func problems(_ text: String) -> [ConfigurationError.Problem] {
        do {
            _ = try Configuration.parse(text, source: "test.toml")
            return []
        } catch {
            return error.problems
        }
    }

    func testTheRemoteIsOffByDefaultWithTheStandardKeys() throws {
        let ir = try Configuration.parse("").ir
        XCTAssertFalse(ir.isEnabled)
        XCTAssertEqual(ir.device, "gpio_ir_recv")
        XCTAssertEqual(ir.volumeStepPercent, 2)
        XCTAssertEqual(ir.keys[key("KEY_VOLUMEUP")], .volumeUp)
        XCTAssertEqual(ir.keys[key("KEY_CHANNELUP")], .next)
        XCTAssertEqual(ir.keys[key("KEY_5")], .favoriteNumber(5))
    }

    func testKeysOverrideAndAddToTheDefaults() throws {
        let ir = try Configuration.parse("""
            [ir]
            enabled = true
            device = "/dev/input/by-path/platform-ir-receiver@12-event"
            volume_step = 5
            [ir.keys]
            KEY_UP = "volume_up"
            KEY_DOWN = "volume_down"
            KEY_RED = "favorite_12"
            KEY_0 = "none"
            key_tuner = "band"
            """).ir
        XCTAssertTrue(ir.isEnabled)
        XCTAssertEqual(ir.device, "/dev/input/by-path/platform-ir-receiver@12-event")
        XCTAssertEqual(ir.volumeStepPercent, 5)
        XCTAssertEqual(ir.keys[key("KEY_UP")], .volumeUp)
        XCTAssertEqual(ir.keys[key("KEY_DOWN")], .volumeDown)
        XCTAssertEqual(ir.keys[key("KEY_RED")], .favoriteNumber(12))
        XCTAssertEqual(ir.keys[key("KEY_TUNER")], .band, "names are the kernel's, in any case")
        XCTAssertNil(ir.keys[key("KEY_0")], "\"none\" unmaps a default key")
        XCTAssertEqual(ir.keys[key("KEY_VOLUMEUP")], .volumeUp, "the other defaults stay")
    }

    func testAnUnknownKeyNameOrActionIsAnErrorNamingTheKeyAndLine() {
        let found = problems("""
            [ir]
            enabled = true
            [ir.keys]
            KEY_VOLUME_UP = "volume_up"
            KEY_MUTE = "silence"
            KEY_1 = "favorite_0"
            KEY_2 = 3
            """)
        XCTAssertEqual(Set(found.map(\.key)), ["ir.keys.KEY_1", "ir.keys.KEY_2", "ir.keys.KEY_MUTE", "ir.keys.KEY_VOLUME_UP"])
        let byKey = Dictionary(found.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byKey["ir.keys.KEY_VOLUME_UP"]?.line, 4)
        XCTAssertTrue(byKey["ir.keys.KEY_VOLUME_UP"]?.message.contains("not a key the kernel knows") == true, "\(found)")
        XCTAssertEqual(byKey["ir.keys.KEY_MUTE"]?.line, 5)
        XCTAssertTrue(byKey["ir.keys.KEY_MUTE"]?.message.contains("not \"silence\"") == true, "\(found)")
        XCTAssertTrue(byKey["ir.keys.KEY_MUTE"]?.message.contains("volume_up") == true, "the choices are named")
        XCTAssertEqual(byKey["ir.keys.KEY_1"]?.line, 6)
        XCTAssertEqual(byKey["ir.keys.KEY_2"]?.message, "must be a string")
    }

    func testBadDeviceAndStepAreErrors() {
        XCTAssertEqual(problems("[ir]\ndevice = \"\"").map(\.key), ["ir.device"])
        XCTAssertEqual(problems("[ir]\ndevice = \"a\\u0007b\"").map(\.key), ["ir.device"])
        XCTAssertEqual(problems("[ir]\nvolume_step = 0").map(\.key), ["ir.volume_step"])
        XCTAssertEqual(problems("[ir]\nvolume_step = 1000000000000").map(\.key), ["ir.volume_step"])
        XCTAssertEqual(problems("[ir]\nenabled = \"yes\"").map(\.key), ["ir.enabled"])
        XCTAssertEqual(problems("[ir]\nkeys = 1").map(\.key), ["ir.keys"])
        XCTAssertEqual(problems("[ir]\nmystery = 1").map(\.key), ["ir.mystery"])
    }

    /// The keymap in hardware/rc_keymaps names keys the kernel knows, and each does something by default.
    func testTheShippedKeymapsKeysAllHaveDefaultActions() throws {
        let path = ProjectPaths.root.appendingPathComponent("hardware/rc_keymaps/wavedial_car_mp3.toml")
        let text = try String(contentsOf: path, encoding: .utf8)
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("0x"), let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        XCTAssertEqual(names.count, 21, "the remote's 21 keys")
        for name in names {
            XCTAssertNotNil(KeyCode(name: name).flatMap { IRSettings.defaultKeys[$0] }, name)
        }
    }
}
