import Foundation
import Hardware
import WavedialTestSupport
import XCTest

/// The IR remote against the real daemon, headless: `wavedial sim ir` through the key map and the repeat
/// policy (on the host), and a real evdev device made with uinput, read by the daemon with `[ir] enabled`
/// (in the gpio-vm guest, scripts/test.d/gpio-vm: the host has no /dev/uinput, so that one skips here).
final class DaemonIRGuestTests: XCTestCase {
    private static let stations = (1...4).map { number in
        RadioUnderTest.StationSpec(uuid: "00000000-0000-4000-8000-00000000021\(number)", name: "Remote FM \(number)",
                                   url: "http://127.0.0.1:9/remote\(number)")
    }

    private func volume(_ radio: RadioUnderTest) -> Int? { radio.status()["volume"] as? Int }
    private func muted(_ radio: RadioUnderTest) -> Bool? { radio.status()["muted"] as? Bool }
    private func stationID(_ radio: RadioUnderTest) -> String? {
        (radio.status()["station"] as? [String: Any])?["stationuuid"] as? String
    }

    func testSimulatedKeysFollowTheKeyMapAndAHeldKeyRepeatsTheVolumeOnly() throws {
        let radio = try RadioUnderTest(stations: Self.stations) { config in
            config.extra += "\n[ir]\nvolume_step = 3\n[ir.keys]\nKEY_UP = \"volume_down\"\nKEY_0 = \"none\"\n"
        }
        defer { radio.stop() }
        try radio.startDaemon()
        func sim(_ arguments: String...) {
            let result = try? radio.cli.run(["sim", "ir"] + arguments)
            XCTAssertEqual(result?.status, 0, "sim ir \(arguments): \(result?.stderr ?? "did not run")")
        }
        radio.tune(Self.stations[0].uuid)
        let start = try XCTUnwrap(volume(radio))
        let up = start <= 50 ? "KEY_VOLUMEUP" : "KEY_VOLUMEDOWN"
        let sign = start <= 50 ? 1 : -1
        sim(up)
        XCTAssertEqual(volume(radio), start + sign * 3, "one press: one step of [ir] volume_step")
        sim(up, "--hold", "--repeats", "4")
        XCTAssertEqual(volume(radio), start + sign * 18, "held: the press and its 4 autorepeats")
        sim("KEY_UP", "--hold", "--repeats", "1")
        XCTAssertEqual(volume(radio), start + sign * 18 - 6, "[ir.keys] maps KEY_UP to volume_down")
        sim("key_mute")
        XCTAssertEqual(muted(radio), true)
        sim("KEY_MUTE", "--hold")
        XCTAssertEqual(muted(radio), false, "a held mute toggles once")

        sim("KEY_NEXT")
        let next = try XCTUnwrap(stationID(radio))
        XCTAssertNotEqual(next, Self.stations[0].uuid, "the next station along the dial")
        sim("KEY_CHANNELDOWN")
        XCTAssertEqual(stationID(radio), Self.stations[0].uuid, "and back")
        sim("KEY_CHANNELUP", "--hold", "--repeats", "6")
        XCTAssertEqual(stationID(radio), next, "a held station key steps once")
        sim("KEY_0")
        XCTAssertEqual(radio.status()["band"] as? String, "nearby", "KEY_0 unmapped: no band switch")

        let unknown = try radio.cli.run("sim", "ir", "KEY_VOLUME_UP")
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("unknown key"), unknown.stderr)
        let raw = try radio.cli.run("sim", "ir", "KEY_MUTE", "--hold", "--repeats", "101")
        XCTAssertNotEqual(raw.status, 0, "repeats are bounded")
        radio.assertAlive()
    }

    func testTheDaemonReadsARealReceiverThatAppearsLateAndChangesTheStatus() throws {
        guard ProcessInfo.processInfo.environment["WAVEDIAL_GPIO_VM"] != nil else {
            throw XCTSkip("needs /dev/uinput: run inside the VM (scripts/test.d/gpio-vm)")
        }
        let name = "wd-ir-\(UUID().uuidString.prefix(8))"
        let radio = try RadioUnderTest(stations: Self.stations) { config in
            config.extra += "\n[ir]\nenabled = true\ndevice = \"\(name)\"\n"
        }
        defer { radio.stop() }
        try radio.startDaemon()
        // The guest is emulated on one CPU: wait generously.
        radio.waitFor("Remote offline while there is no receiver", timeout: 90) { radio.error == "Remote offline" }
        let keys = ["KEY_VOLUMEUP", "KEY_VOLUMEDOWN", "KEY_MUTE", "KEY_NEXT", "KEY_CHANNELUP"].compactMap { KeyCode(name: $0) }
        let device = try UInputDevice(name: name, keys: keys)
        radio.waitFor("the receiver opened, the notice cleared", timeout: 90) { radio.error == nil }
        radio.tune(Self.stations[0].uuid)
        let start = try XCTUnwrap(volume(radio))
        let key = KeyCode(name: start <= 50 ? "KEY_VOLUMEUP" : "KEY_VOLUMEDOWN")!
        let sign = start <= 50 ? 1 : -1
        try device.press(key, repeats: 3)
        radio.waitFor("the volume changed by the press and 3 autorepeats") { volume(radio) == start + sign * 8 }
        try device.press(KeyCode(name: "KEY_MUTE")!)
        radio.waitFor("muted") { muted(radio) == true }
        try device.press(KeyCode(name: "KEY_NEXT")!, repeats: 5)
        radio.waitFor("the next station") { stationID(radio) != nil && stationID(radio) != Self.stations[0].uuid }
        let next = stationID(radio)
        // A last key, so that anything still in flight from the held one would have arrived before it.
        try device.press(KeyCode(name: "KEY_MUTE")!)
        radio.waitFor("unmuted") { muted(radio) == false }
        XCTAssertEqual(stationID(radio), next, "a held KEY_NEXT stepped one station, not six")
        XCTAssertEqual(volume(radio), start + sign * 8, "mute keeps the volume")

        // The receiver goes away (its driver unbound) and comes back. The station's failure is the status's
        // error now (it outranks a device's), so the daemon's log tells when the reader lost and found it.
        func log() -> String { radio.daemon?.log ?? "" }
        device.destroy()
        radio.waitFor("the receiver's loss noticed", timeout: 30) { log().contains("the input device went away") }
        let again = try UInputDevice(name: name, keys: keys)
        radio.waitFor("the receiver opened again", timeout: 90) { log().components(separatedBy: "reading the IR remote").count == 3 }
        try again.press(key)
        radio.waitFor("a key works again") { volume(radio) == start + sign * 10 }
        radio.assertAlive()
    }
}
