/// How the knob and the buttons are wired and how their signals are decoded.
///
/// Plain values with the documented defaults; the configuration loader maps `[hardware]`,
/// `[hardware.encoder]`, `[hardware.volume_encoder]` and `[hardware.buttons]` onto it (this module parses no files).
public struct InputSettings: Sendable, Equatable {
    /// Where edges come from.
    public enum Backend: String, Sendable, Equatable, CaseIterable {
        /// The kernel's GPIO character device through libgpiod.
        case gpiod
        /// Edges injected by the simulator or a test.
        case simulated
    }

    /// The rotary encoder: contacts A and B, its optional push switch, its type and acceleration.
    public struct Encoder: Sendable, Equatable {
        public var a: GPIOLineID = 17
        public var b: GPIOLineID = 27
        /// The push switch, decoded like a button named `push`; nil when the encoder has none.
        public var push: GPIOLineID? = 22
        public var stepsPerDetent: QuadratureDecoder.StepsPerDetent = .four
        /// Swaps clockwise and counter-clockwise (A and B wired the other way round).
        public var isInverted = false
        public var bias: GPIOBias = .pullUp
        public var isActiveLow = false
        public var acceleration = DetentAcceleration()

        public init() {}
    }

    /// The optional second encoder that turns the volume: decoded like the tuning knob, its push
    /// switch a button named `volume_push` (mute).
    public struct VolumeKnob: Sendable, Equatable {
        /// Contacts, push switch, type and acceleration; by default on GPIO 10, 9 and 11 (hardware/pinmap.toml).
        public var encoder: Encoder
        /// Volume points (of 0–100) one detent moves, before acceleration.
        public var stepPercent = 2

        public init() {
            encoder = Encoder()
            encoder.a = 10
            encoder.b = 9
            encoder.push = 11
        }
    }

    /// Push-and-turn: the tuning knob turned while its push switch is held turns the volume.
    ///
    /// A detent counts as volume while the switch's contact is closed (from the first edge that
    /// closes it until its release is debounced), and after the release as long as the turn goes
    /// on: a detent less than `graceNanoseconds` after the previous volume detent is still volume,
    /// so letting go of the push mid-turn retunes nothing. A push during which the knob turned
    /// is not a click (no mute) nor a long press.
    public struct PushTurn: Sendable, Equatable {
        /// Volume points (of 0–100) one detent moves, before acceleration.
        public var stepPercent = 2
        /// How long after the previous volume detent a detent still belongs to the same turn.
        public var graceNanoseconds: UInt64 = 300_000_000

        public init() {}
    }

    /// One push button: its name (`play`, `favorite`, …) and line.
    public struct Button: Sendable, Equatable {
        public var name: String
        public var line: GPIOLineID
        /// Whether holding it repeats (`repeat` actions) instead of firing one `long`.
        public var repeats: Bool

        public init(name: String, line: GPIOLineID, repeats: Bool = false) {
            self.name = name
            self.line = line
            self.repeats = repeats
        }
    }

    public var backend: Backend = .gpiod
    /// The chip: name (`gpiochip0`), `/dev` path or label (`pinctrl-bcm2835`).
    public var chip = "gpiochip0"
    public var encoder = Encoder()
    /// The volume knob; nil (the default) when the radio has none.
    public var volumeKnob: VolumeKnob?
    /// Push-and-turn on the tuning knob (needs its push switch); nil when turned off.
    public var pushTurn: PushTurn? = PushTurn()
    public var buttons: [Button] = [
        Button(name: "play", line: 5),
        Button(name: "pause", line: 6),
        Button(name: "back", line: 13),
        Button(name: "forward", line: 16),
        Button(name: "favorite", line: 26),
    ]
    /// Bias of the button lines and the encoder's push switch.
    public var buttonBias: GPIOBias = .pullUp
    /// Buttons switch to ground by default, so a closed contact reads low.
    public var buttonsActiveLow = true
    /// A button level counts once stable this long.
    public var debounceNanoseconds: UInt64 = 30_000_000
    public var longPressNanoseconds: UInt64 = 800_000_000
    /// Timing of the buttons with `repeats` set.
    public var autoRepeat = ButtonDecoder.AutoRepeat()
    /// How long edges are held to put the lines' events back in timestamp order (see `GpiodBackend`).
    public var edgeOrderingNanoseconds = GpiodBackend.defaultOrderingWindowNanoseconds

    /// The defaults of `[hardware]`: gpiod on gpiochip0, encoder on 17/27/22, buttons on 5, 6, 13, 16, 26
    /// (GPIO 19 is left to the I2S DAC, like 18, 20 and 21; 2 and 3 to I2C), push-and-turn on, no volume knob.
    public init() {}
}
