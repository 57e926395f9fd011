/// Turns the edges of the knob's and the buttons' lines into `InputEvent`s.
///
/// It owns a `QuadratureDecoder` with its `DetentAcceleration` and a `ButtonDecoder` a button.
/// `lines` is the request to make of a `GPIOBackend`; edges refer to it by index. Time comes
/// only from edge timestamps and
/// `advance(to:)`. A value type owned by one thread (the `InputReader`'s, or a test).
public struct InputDecoder: Sendable {
    private enum Role: Sendable {
        case encoderA, encoderB
        case button(Int)
    }

    /// The lines to request, in the order edges index them.
    public let lines: [GPIOLineSpec]
    private let roles: [Role]
    private var levels: [Bool]
    private var encoder: QuadratureDecoder
    private var acceleration: DetentAcceleration
    private var buttons: [(name: String, decoder: ButtonDecoder)]

    /// The lines `settings` needs: encoder A, B, then the push switch and the buttons.
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
        self.roles = roles
        self.buttons = buttons
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
            case .button(let button):
                events += buttonEvents(button, buttons[button].decoder.update(pressed: edge.level, at: edge.timestamp))
            }
        }
        return events
    }

    /// Returns the events whose time has come by `time` (settled detents, debounced buttons, long presses, repeats).
    public mutating func advance(to time: UInt64) -> [InputEvent] {
        guard let deadline = nextDeadline, deadline <= time else { return [] }
        let settled = encoder.nextDeadline ?? time
        var events = detentEvents(encoder.advance(to: time), at: settled)
        for button in buttons.indices {
            events += buttonEvents(button, buttons[button].decoder.advance(to: time))
        }
        // Each source is in order; merge them by time (a stable sort keeps same-time order).
        return events.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// The earliest time at which `advance(to:)` has something to report, if any.
    public var nextDeadline: UInt64? {
        ([encoder.nextDeadline] + buttons.map(\.decoder.nextDeadline)).compactMap { $0 }.min()
    }

    private mutating func detentEvents(_ detents: Int, at time: UInt64) -> [InputEvent] {
        let steps = acceleration.steps(for: detents, at: time)
        return steps == 0 ? [] : [InputEvent(.detent(delta: steps), at: time)]
    }

    private func buttonEvents(_ button: Int, _ actions: [(action: ButtonAction, time: UInt64)]) -> [InputEvent] {
        actions.map { InputEvent(.button(name: buttons[button].name, action: $0.action), at: $0.time) }
    }

    private static func buttonLines(_ settings: InputSettings) -> [(String, GPIOLineID)] {
        (settings.encoder.push.map { [("push", $0)] } ?? []) + settings.buttons.map { ($0.name, $0.line) }
    }
}
