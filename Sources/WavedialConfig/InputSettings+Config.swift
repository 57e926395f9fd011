import Hardware
import WavedialCore

extension InputSettings {
    /// Reads `[hardware]`, `[hardware.encoder]`, `[hardware.volume_encoder]` and `[hardware.buttons]`.
    init(_ section: ConfigSection) {
        self.init()
        backend = section.choice("backend", default: backend)
        chip = section.string("chip", default: chip)
        buttonBias = section.choice("bias", default: buttonBias)
        buttonsActiveLow = section.bool("active_low", default: buttonsActiveLow)
        debounceNanoseconds = UInt64(section.int("debounce_ms", default: Int(debounceNanoseconds / 1_000_000), range: 1...500)) * 1_000_000
        longPressNanoseconds = UInt64(section.int("long_press_ms", default: Int(longPressNanoseconds / 1_000_000), range: 100...10_000)) * 1_000_000
        autoRepeat.delayNanoseconds = UInt64(section.int(
            "repeat_delay_ms", default: Int(autoRepeat.delayNanoseconds / 1_000_000), range: 100...5000)) * 1_000_000
        autoRepeat.intervalNanoseconds = UInt64(section.int(
            "repeat_interval_ms", default: Int(autoRepeat.intervalNanoseconds / 1_000_000), range: 20...5000)) * 1_000_000
        edgeOrderingNanoseconds = UInt64(section.int(
            "edge_ordering_ms", default: Int(edgeOrderingNanoseconds / 1_000_000), range: 0...50)) * 1_000_000

        let encoderSection = section.section("encoder")
        encoder = Self.encoder(encoderSection, default: encoder)
        if encoderSection.bool("push_turn", default: pushTurn != nil) {
            var pushTurn = PushTurn()
            pushTurn.stepPercent = encoderSection.int("push_turn_step_percent", default: pushTurn.stepPercent, range: 1...25)
            pushTurn.graceNanoseconds = UInt64(encoderSection.int(
                "push_turn_grace_ms", default: Int(pushTurn.graceNanoseconds / 1_000_000), range: 0...2000)) * 1_000_000
            self.pushTurn = pushTurn
        } else {
            pushTurn = nil
        }
        // The volume knob is there when its table is, on the pin map's pins unless it names others.
        let volumeSection = section.section("volume_encoder")
        if volumeSection.isPresent {
            var knob = VolumeKnob()
            knob.encoder = Self.encoder(volumeSection, default: knob.encoder)
            knob.stepPercent = volumeSection.int("step_percent", default: knob.stepPercent, range: 1...25)
            volumeKnob = knob
        }

        let buttonSection = section.section("buttons")
        let repeating = buttonSection.strings("repeat", default: [])
        for name in repeating where !buttons.contains(where: { $0.name == name }) {
            buttonSection.report("repeat", "names unknown button \"\(name)\" (play, pause, back, forward, favorite)")
        }
        buttons = buttons.map { button in
            var button = button
            button.line = Self.line(buttonSection, button.name) ?? button.line
            button.repeats = repeating.contains(button.name)
            return button
        }
        var seen: [GPIOLineID: String] = [:]
        var all = [("encoder.a", encoder.a), ("encoder.b", encoder.b)] + (encoder.push.map { [("encoder.push", $0)] } ?? [])
            + buttons.map { ("buttons.\($0.name)", $0.line) }
        if let knob = volumeKnob?.encoder {
            all += [("volume_encoder.a", knob.a), ("volume_encoder.b", knob.b)] + (knob.push.map { [("volume_encoder.push", $0)] } ?? [])
        }
        for (name, line) in all {
            if let other = seen[line] {
                section.report(name, "uses line \(line), which \(other) uses too")
            }
            seen[line] = name
        }
    }

    /// An encoder's table (`[hardware.encoder]`, `[hardware.volume_encoder]`): pins, type, bias and acceleration.
    private static func encoder(_ section: ConfigSection, default fallback: Encoder) -> Encoder {
        var encoder = fallback
        encoder.a = line(section, "a") ?? encoder.a
        encoder.b = line(section, "b") ?? encoder.b
        if section.optionalInt("push") == -1 {
            encoder.push = nil  // -1: the encoder has no push switch
        } else if let push = line(section, "push") {
            encoder.push = push
        }
        let steps = section.int("steps_per_detent", default: encoder.stepsPerDetent.rawValue)
        if let value = QuadratureDecoder.StepsPerDetent(rawValue: steps) {
            encoder.stepsPerDetent = value
        } else {
            section.report("steps_per_detent", "must be 4, 2 or 1, not \(steps)")
        }
        encoder.isInverted = section.bool("invert", default: encoder.isInverted)
        encoder.bias = section.choice("bias", default: encoder.bias)
        encoder.isActiveLow = section.bool("active_low", default: encoder.isActiveLow)
        encoder.acceleration.isEnabled = section.bool("acceleration", default: encoder.acceleration.isEnabled)
        encoder.acceleration.thresholdNanoseconds = UInt64(section.int(
            "acceleration_threshold_ms", default: Int(encoder.acceleration.thresholdNanoseconds / 1_000_000), range: 10...2000)) * 1_000_000
        encoder.acceleration.maximumStepsPerDetent = section.int(
            "acceleration_max_steps", default: encoder.acceleration.maximumStepsPerDetent, range: 1...100)
        return encoder
    }

    private static func line(_ section: ConfigSection, _ key: String) -> GPIOLineID? {
        switch section.numberOrName(key) {
        case .number(let offset)?:
            guard (0...1023).contains(offset) else {
                section.report(key, "must be a GPIO line offset from 0 to 1023 or a line name, not \(offset)")
                return nil
            }
            return .offset(UInt32(offset))
        case .name(let name)?:
            return GPIOLineID(name)
        case nil:
            return nil
        }
    }
}
