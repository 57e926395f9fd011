/// The IR remote (`[ir]`): the kernel's receiver (`dtoverlay=gpio-ir`, rc-core) as an evdev device, and
/// what each of its keys does.
public struct IRSettings: Sendable, Equatable {
    /// Whether the daemon reads the remote at all.
    public var isEnabled = false
    /// The receiver: a device's name as the kernel gives it (`EVIOCGNAME`, rc-core's "gpio_ir_recv"), or a
    /// path (starting with "/"), e.g. `/dev/input/by-path/platform-ir-receiver@12-event`.
    public var device = "gpio_ir_recv"
    /// Points of 0–100 a volume key changes the volume by, at each press and each autorepeat.
    public var volumeStepPercent = 2
    /// What each key does; keys not in it do nothing.
    public var keys: [KeyCode: IRAction] = IRSettings.defaultKeys

    public init() {}

    /// The standard keys of remotes and of ir-keytable's keymaps.
    public static let defaultKeys: [KeyCode: IRAction] = {
        var keys: [String: IRAction] = [
            "KEY_VOLUMEUP": .volumeUp, "KEY_VOLUMEDOWN": .volumeDown, "KEY_MUTE": .mute,
            "KEY_NEXT": .next, "KEY_NEXTSONG": .next, "KEY_CHANNELUP": .next, "KEY_RIGHT": .next,
            "KEY_PREVIOUS": .previous, "KEY_PREVIOUSSONG": .previous, "KEY_CHANNELDOWN": .previous, "KEY_LEFT": .previous,
            "KEY_PLAYPAUSE": .playPause, "KEY_OK": .playPause, "KEY_PLAY": .play, "KEY_PAUSE": .pause, "KEY_STOP": .pause,
            "KEY_BACK": .back, "KEY_FORWARD": .forward,
            "KEY_FAVORITES": .favorite, "KEY_BOOKMARKS": .favorite,
            "KEY_0": .band, "KEY_NUMERIC_0": .band, "KEY_RADIO": .band,
        ]
        for digit in 1...9 {
            keys["KEY_\(digit)"] = .favoriteNumber(digit)
            keys["KEY_NUMERIC_\(digit)"] = .favoriteNumber(digit)
        }
        var codes: [KeyCode: IRAction] = [:]
        for (name, action) in keys {
            guard let code = KeyCode(name: name) else { preconditionFailure("the kernel has no \(name)") }
            codes[code] = action
        }
        return codes
    }()
}
