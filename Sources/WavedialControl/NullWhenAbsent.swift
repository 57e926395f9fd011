/// An optional that JSON shows as `null` when absent, where a plain optional's key would be left out: for
/// status fields the CLI's interface always has (`sleep_remaining_s`, `next_alarm`).
public struct NullWhenAbsent<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var value: Value?

    public init(_ value: Value?) { self.value = value }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
