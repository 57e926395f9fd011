import CMpg123

/// A libmpg123 failure: the raw error code, the function that returned it and `mpg123_plain_strerror`'s words.
public struct Mpg123Error: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let function: String

    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    public var description: String { "\(function): \(String(cString: mpg123_plain_strerror(code)))" }
}
