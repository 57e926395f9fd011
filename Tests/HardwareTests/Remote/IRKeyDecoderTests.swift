import Hardware
import XCTest

/// The remote's key map and repeat policy, on the events rc-core sends: a press (1), autorepeats while
/// held (2), a release (0), each followed by a SYN_REPORT, with EV_MSC scancodes between.
final class IRKeyDecoderTests: XCTestCase {
    private func key(_ name: String) -> KeyCode {
        guard let key = KeyCode(name: name) else { preconditionFailure("no \(name)") }
        return key
    }

    private let report = EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.report, value: 0)

    /// A press of `name`, `repeats` autorepeats and the release, as rc-core reports them.
    private func press(_ name: String, repeats: Int = 0) -> [EvdevEvent] {
        let code = key(name).rawValue
        let scancode = EvdevEvent(type: 0x04, code: 0x04, value: 0x0015)  // EV_MSC MSC_SCAN, before each key event
        var events = [scancode, EvdevEvent(type: EvdevEvent.key, code: code, value: 1), report]
        for _ in 0..<repeats { events += [scancode, EvdevEvent(type: EvdevEvent.key, code: code, value: 2), report] }
        return events + [EvdevEvent(type: EvdevEvent.key, code: code, value: 0), report]
    }

    private func decode(_ events: [EvdevEvent], keys: [KeyCode: IRAction] = IRSettings.defaultKeys) -> [IRAction] {
        var decoder = IRKeyDecoder(keys: keys)
        return decoder.handle(events)
    }

    func testTheStandardKeysDoWhatTheirNamesSay() {
        let expected: [(String, IRAction)] = [
            ("KEY_VOLUMEUP", .volumeUp), ("KEY_VOLUMEDOWN", .volumeDown), ("KEY_MUTE", .mute),
            ("KEY_NEXT", .next), ("KEY_CHANNELUP", .next), ("KEY_RIGHT", .next),
            ("KEY_PREVIOUS", .previous), ("KEY_CHANNELDOWN", .previous), ("KEY_LEFT", .previous),
            ("KEY_PLAYPAUSE", .playPause), ("KEY_OK", .playPause), ("KEY_PLAY", .play), ("KEY_PAUSE", .pause),
            ("KEY_FAVORITES", .favorite), ("KEY_0", .band), ("KEY_1", .favoriteNumber(1)), ("KEY_9", .favoriteNumber(9)),
            ("KEY_NUMERIC_1", .favoriteNumber(1)), ("KEY_NUMERIC_7", .favoriteNumber(7)),
        ]
        for (name, action) in expected {
            XCTAssertEqual(decode(press(name)), [action], name)
        }
        XCTAssertEqual(decode(press("KEY_A")), [], "a key not in the map does nothing")
    }

    func testAHeldKeyRepeatsTheVolumeButNeverAStationStepOrAFavorite() {
        XCTAssertEqual(decode(press("KEY_VOLUMEUP", repeats: 5)), Array(repeating: .volumeUp, count: 6))
        XCTAssertEqual(decode(press("KEY_VOLUMEDOWN", repeats: 3)), Array(repeating: .volumeDown, count: 4))
        for name in ["KEY_NEXT", "KEY_CHANNELDOWN", "KEY_3", "KEY_FAVORITES", "KEY_MUTE", "KEY_PLAYPAUSE", "KEY_0"] {
            XCTAssertEqual(decode(press(name, repeats: 8)).count, 1, "\(name) held does it once")
        }
        // Policy follows the action, not the key: a digit remapped to the volume repeats.
        XCTAssertEqual(decode(press("KEY_1", repeats: 2), keys: [key("KEY_1"): .volumeDown]), [.volumeDown, .volumeDown, .volumeDown])
    }

    func testWhatFollowsALostStretchIsIgnoredUntilTheNextReport() {
        let dropped = EvdevEvent(type: EvdevEvent.synchronization, code: EvdevEvent.dropped, value: 0)
        let mute = key("KEY_MUTE").rawValue
        let events = [dropped, EvdevEvent(type: EvdevEvent.key, code: mute, value: 1), report] + press("KEY_NEXT")
        XCTAssertEqual(decode(events), [.next], "the press in the torn report is not acted on late")
    }

    func testJunkEventsAreIgnored() {
        let volume = key("KEY_VOLUMEUP").rawValue
        let junk = [
            EvdevEvent(type: EvdevEvent.key, code: 0x300, value: 1), EvdevEvent(type: EvdevEvent.key, code: .max, value: 1),
            EvdevEvent(type: EvdevEvent.key, code: volume, value: 3), EvdevEvent(type: EvdevEvent.key, code: volume, value: -1),
            EvdevEvent(type: EvdevEvent.key, code: volume, value: .min), EvdevEvent(type: 0x02, code: volume, value: 1),
            EvdevEvent(type: .max, code: .max, value: .max), EvdevEvent(type: EvdevEvent.synchronization, code: .max, value: 1),
        ]
        XCTAssertEqual(decode(junk), [])
        XCTAssertEqual(decode(junk + press("KEY_VOLUMEUP")), [.volumeUp], "and the decoder still works after them")
    }

    func testKeyNamesAreTheKernels() {
        XCTAssertEqual(KeyCode(name: "KEY_VOLUMEUP")?.rawValue, 115)
        XCTAssertEqual(KeyCode(name: "KEY_NUMERIC_9")?.rawValue, 0x209)
        XCTAssertEqual(KeyCode(name: "KEY_HANGUEL")?.rawValue, KeyCode(name: "KEY_HANGEUL")?.rawValue, "aliases too")
        XCTAssertNil(KeyCode(name: "KEY_VOLUME_UP"))
        XCTAssertNil(KeyCode(name: "KEY_MAX"))
        XCTAssertNil(KeyCode(rawValue: 0x300))
        XCTAssertEqual(KeyCode(rawValue: 113)?.name, "KEY_MUTE")
    }

    func testActionNames() {
        XCTAssertEqual(IRAction(name: "volume_up"), .volumeUp)
        XCTAssertEqual(IRAction(name: "favorite_12"), .favoriteNumber(12))
        XCTAssertEqual(IRAction(name: "favorite_99")?.name, "favorite_99")
        for bad in ["favorite_0", "favorite_100", "favorite_01", "favorite_+1", "favorite_", "Volume_Up", "", "none"] {
            XCTAssertNil(IRAction(name: bad), bad)
        }
    }
}
