/// A line on a GPIO chip, by offset or by the name the device tree gives it.
public enum GPIOLineID: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    case offset(UInt32)
    case name(String)

    public init(integerLiteral value: UInt32) { self = .offset(value) }

    /// Parses `17` as an offset and anything else as a line name.
    public init(_ text: String) {
        if let offset = UInt32(text) { self = .offset(offset) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .offset(let offset): return String(offset)
        case .name(let name): return name
        }
    }
}

/// The internal resistor a line is requested with.
public enum GPIOBias: String, Sendable, Equatable, CaseIterable {
    /// Pulled to 1: switches to ground (the usual wiring, and the default).
    case pullUp = "pull-up"
    /// Pulled to 0: switches to 3.3 V.
    case pullDown = "pull-down"
    /// No resistor: external pull resistors on the board.
    case disabled
    /// Leave the line as it is (kernels or chips that cannot set a bias).
    case asIs = "as-is"
}

/// How one input line is requested: which line, its bias and its active level, and what it is for.
public struct GPIOLineSpec: Sendable, Equatable {
    public var line: GPIOLineID
    public var bias: GPIOBias
    /// When true the line reads 1 while the pin is low (a switch to ground reads 1 when closed).
    public var isActiveLow: Bool
    /// What the line is for (`encoder.a`, `play`, …): shown by `wavedial gpio monitor --raw` and in errors.
    public var role: String

    public init(line: GPIOLineID, bias: GPIOBias = .pullUp, isActiveLow: Bool = false, role: String) {
        self.line = line
        self.bias = bias
        self.isActiveLow = isActiveLow
        self.role = role
    }
}
