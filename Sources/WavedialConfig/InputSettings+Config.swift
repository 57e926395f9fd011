import Hardware
import WavedialCore

extension InputSettings {
    /// Reads `[hardware]`, `[hardware.encoder]` and `[hardware.buttons]`.
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
        encoder.a = Self.line(encoderSection, "a") ?? encoder.a
        encoder.b = Self.line(encoderSection, "b") ?? encoder.b
        if encoderSection.optionalInt("push") == -1 {
            encoder.push = nil  // -1: the encoder has no push switch
        } else if let push = Self.line(encoderSection, "push") {
            encoder.push = push
        }
        let steps = encoderSection.int("steps_per_detent", default: encoder.stepsPerDetent.rawValue)
        if let value = QuadratureDecoder.StepsPerDetent(rawValue: steps) {
            encoder.stepsPerDetent = value
        } else {
            encoderSection.report("steps_per_detent", "must be 4, 2 or 1, not \(steps)")
        }
        encoder.isInverted = encoderSection.bool("invert", default: encoder.isInverted)
        encoder.bias = encoderSection.choice("bias", default: encoder.bias)
        encoder.isActiveLow = encoderSection.bool("active_low", default: encoder.isActiveLow)
        encoder.acceleration.isEnabled = encoderSection.bool("acceleration", default: encoder.acceleration.isEnabled)
        encoder.acceleration.thresholdNanoseconds = UInt64(encoderSection.int(
            "acceleration_threshold_ms", default: Int(encoder.acceleration.thresholdNanoseconds / 1_000_000), range: 10...2000)) * 1_000_000
        encoder.acceleration.maximumStepsPerDetent = encoderSection.int(
            "acceleration_max_steps", default: encoder.acceleration.maximumStepsPerDetent, range: 1...100)

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
        let all = [("encoder.a", encoder.a), ("encoder.b", encoder.b)] + (encoder.push.map { [("encoder.push", $0)] } ?? [])
            + buttons.map { ("buttons.\($0.name)", $0.line) }
        for (name, line) in all {
            if let other = seen[line] {
                section.report(name, "uses line \(line), which \(other) uses too")
            }
            seen[line] = name
        }
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
