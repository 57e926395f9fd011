/// A libfaad2 call that failed (`NeAACDecOpen` out of memory, `NeAACDecSetConfiguration` refusing the settings);
/// faad gives no code for these. A frame that fails to decode is skipped, never thrown.
public struct FaadError: Error, CustomStringConvertible, Sendable {
    public let function: String

    public init(function: String) {
        self.function = function
    }

    public var description: String { "\(function) failed" }
}
