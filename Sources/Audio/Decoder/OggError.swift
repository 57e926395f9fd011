/// A libogg failure: the function that failed (libogg says no more than that; it is out of memory).
public struct OggError: Error, CustomStringConvertible, Sendable {
    public let function: String

    public init(function: String) {
        self.function = function
    }

    public var description: String { "\(function): out of memory" }
}
