/// Turns the edges of the knobs' and the buttons' lines into `InputEvent`s.
///
/// It owns a `QuadratureDecoder` with its `DetentAcceleration` a knob (the tuning knob, and the volume
/// knob when there is one) and a `ButtonDecoder` a button. `lines` is the request to make of a
/// `GPIOBackend`; edges refer to it by index. Push-and-turn (`InputSettings.PushTurn`) is decided
/// here, where the push switch's contact and the detents meet in time order. Time comes only from
/// edge timestamps and `advance(to:)`. A value type owned by one thread (the `InputReader`'s, or a test).
public struct InputDecoder: Sendable {
    private enum Role: Sendable {
        case encoderA, encoderB
        case volumeA, volumeB
        case button(Int)
    }

    /// The volume knob's decoding state and where its contacts are in `levels`.
    private struct VolumeKnobState: Sendable {
        var encoder: QuadratureDecoder
        var acceleration: DetentAcceleration
        let stepPercent: Int
        let lineA: Int
        let lineB: Int
    }

    /// The name of the volume knob's push switch as a button.
    public static let volumePushName = "volume_push"

    /// The lines to request, in the order edges index them.
    public let lines: [GPIOLineSpec]
    private let roles: [Role]
    private var levels: [Bool]
    private var encoder: QuadratureDecoder
    private var acceleration: DetentAcceleration
    private var volumeKnob: VolumeKnobState?
    private var buttons: [(name: String, decoder: ButtonDecoder)]
    private let pushTurn: InputSettings.PushTurn?
    /// The tuning knob's push switch: its index among the buttons and its line.
    private let push: (button: Int, line: Int)?
    /// Whether the knob turned the volume during the present push (its click and long press are then dropped).
    private var pushTurned = false
    /// When the last push-and-turn detent came: later detents within the grace continue that turn.
    private var lastPushTurnDetent: UInt64?

    /// The lines `settings` needs: encoder A, B, then the push switch and the buttons (the volume
    /// knob's push last), then the volume knob's A and B.
    public static func lines(for settings: InputSettings) -> [GPIOLineSpec] {
        var lines = [
            GPIOLineSpec(line: settings.encoder.a, bias: settings.encoder.bias,
                         isActiveLow: settings.encoder.isActiveLow, role: "encoder.a"),
            GPIOLineSpec(line: settings.encoder.b, bias: settings.encoder.bias,
                         isActiveLow: settings.encoder.isActiveLow, role: "encoder.b"),
        ]
        for (name, line) in buttonLines(settings) {
            lines.append(GPIOLineSpec(line: line, bias: settings.buttonBias,
                                      isActiveLow: settings.buttonsActiveLow, role: name))
        }
        if let knob = settings.volumeKnob?.encoder {
            lines.append(GPIOLineSpec(line: knob.a, bias: knob.bias, isActiveLow: knob.isActiveLow, role: "volume_encoder.a"))
            lines.append(GPIOLineSpec(line: knob.b, bias: knob.bias, isActiveLow: knob.isActiveLow, role: "volume_encoder.b"))
        }
        return lines
    }

    /// Creates a decoder for `settings` whose lines read `levels` (in `lines` order) at `time`.
    public init(settings: InputSettings, levels: [Bool], at time: UInt64) {
        let lines = Self.lines(for: settings)
        precondition(levels.count == lines.count, "one level per requested line")
        self.lines = lines
        self.levels = levels
        self.encoder = QuadratureDecoder(a: levels[0], b: levels[1], stepsPerDetent: settings.encoder.stepsPerDetent,
                                         inverted: settings.encoder.isInverted, at: time)
        self.acceleration = settings.encoder.acceleration
        let repeating = Set(settings.buttons.filter(\.repeats).map(\.name))
        var roles: [Role] = [.encoderA, .encoderB]
        var buttons: [(name: String, decoder: ButtonDecoder)] = []
        for (index, (name, _)) in Self.buttonLines(settings).enumerated() {
            roles.append(.button(index))
            buttons.append((name, ButtonDecoder(
                pressed: levels[2 + index], debounceNanoseconds: settings.debounceNanoseconds,
                longPressNanoseconds: settings.longPressNanoseconds,
                autoRepeat: repeating.contains(name) ? settings.autoRepeat : nil, at: time)))
        }
        if let knob = settings.volumeKnob {
            let a = roles.count
            roles += [.volumeA, .volumeB]
            volumeKnob = VolumeKnobState(
                encoder: QuadratureDecoder(a: levels[a], b: levels[a + 1], stepsPerDetent: knob.encoder.stepsPerDetent,
                                           inverted: knob.encoder.isInverted, at: time),
                acceleration: knob.encoder.acceleration, stepPercent: knob.stepPercent, lineA: a, lineB: a + 1)
        }
        self.roles = roles
        self.buttons = buttons
        let pushButton = settings.encoder.push == nil ? nil : buttons.firstIndex { $0.name == "push" }
        self.push = pushButton.map { ($0, 2 + $0) }
        self.pushTurn = pushButton == nil ? nil : settings.pushTurn
    }

    /// Applies `edges` (oldest first); returns the events completed up to the last edge, in order.
    public mutating func handle(_ edges: [GPIOEdge]) -> [InputEvent] {
        var events: [InputEvent] = []
        for edge in edges {
            events += advance(to: edge.timestamp)
            levels[edge.line] = edge.level
            switch roles[edge.line] {
            case .encoderA, .encoderB:
                let detents = encoder.update(a: levels[0], b: levels[1], at: edge.timestamp)
                events += detentEvents(detents, at: edge.timestamp)
            case .volumeA, .volumeB:
                guard var knob = volumeKnob else { continue }
                let detents = knob.encoder.update(a: levels[knob.lineA], b: levels[knob.lineB], at: edge.timestamp)
                events += Self.volumeEvents(detents, of: &knob, at: edge.timestamp)
                volumeKnob = knob
            case .button(let button):
                events += buttonEvents(button, buttons[button].decoder.update(pressed: edge.level, at: edge.timestamp))
                if button == push?.button, !edge.level, !buttons[button].decoder.isPressed {
                    pushTurned = false  // the contact opened before a press counted: a glitch, not a push
                }
            }
        }
        return events
    }

    /// Returns the events whose time has come by `time` (settled detents, debounced buttons, long presses, repeats).
    public mutating func advance(to time: UInt64) -> [InputEvent] {
        guard let deadline = nextDeadline, deadline <= time else { return [] }
        let settled = encoder.nextDeadline ?? time
        var events = detentEvents(encoder.advance(to: time), at: settled)
        if var knob = volumeKnob {
            let settledVolume = knob.encoder.nextDeadline ?? time
            events += Self.volumeEvents(knob.encoder.advance(to: time), of: &knob, at: settledVolume)
            volumeKnob = knob
        }
        for button in buttons.indices {
            events += buttonEvents(button, buttons[button].decoder.advance(to: time))
        }
        // Each source is in order; merge them by time (a stable sort keeps same-time order).
        return events.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// The earliest time at which `advance(to:)` has something to report, if any.
    public var nextDeadline: UInt64? {
        ([encoder.nextDeadline, volumeKnob?.encoder.nextDeadline] + buttons.map(\.decoder.nextDeadline)).compactMap { $0 }.min()
    }

    /// The tuning knob's detents: the needle's steps, or the volume's while pushed (push-and-turn).
    private mutating func detentEvents(_ detents: Int, at time: UInt64) -> [InputEvent] {
        let steps = acceleration.steps(for: detents, at: time)
        guard steps != 0 else { return [] }
        if let pushTurn, let push {
            let held = levels[push.line] || buttons[push.button].decoder.isPressed
            let continuing = lastPushTurnDetent.map { time &- $0 <= pushTurn.graceNanoseconds } ?? false
            if held || continuing {
                if held { pushTurned = true }
                lastPushTurnDetent = time
                return [InputEvent(.volumeChange(byPercent: Self.percent(steps, pushTurn.stepPercent)), at: time)]
            }
            lastPushTurnDetent = nil
        }
        return [InputEvent(.detent(delta: steps), at: time)]
    }

    private static func volumeEvents(_ detents: Int, of knob: inout VolumeKnobState, at time: UInt64) -> [InputEvent] {
        let steps = knob.acceleration.steps(for: detents, at: time)
        return steps == 0 ? [] : [InputEvent(.volumeChange(byPercent: percent(steps, knob.stepPercent)), at: time)]
    }

    /// `steps` detents of `step` points, within ±100 (the whole range), so a huge count cannot overflow.
    private static func percent(_ steps: Int, _ step: Int) -> Int {
        max(-100, min(100, steps)) * max(0, min(100, step))
    }

    private mutating func buttonEvents(_ button: Int, _ actions: [(action: ButtonAction, time: UInt64)]) -> [InputEvent] {
        var events: [InputEvent] = []
        var released = false
        for (action, time) in actions {
            if button == push?.button {
                // A push that turned the volume was a push-and-turn: no mute, no long press.
                if pushTurned && (action == .click || action == .long) { continue }
                if action == .release { released = true }
            }
            events.append(InputEvent(.button(name: buttons[button].name, action: action), at: time))
        }
        if released { pushTurned = false }
        return events
    }

    private static func buttonLines(_ settings: InputSettings) -> [(String, GPIOLineID)] {
        (settings.encoder.push.map { [("push", $0)] } ?? []) + settings.buttons.map { ($0.name, $0.line) }
            + (settings.volumeKnob?.encoder.push.map { [(volumePushName, $0)] } ?? [])
    }
}
