/// One MPD request line, parsed: the command's name and its arguments, unquoted.
public struct MpdCommand: Sendable, Equatable {
    /// Lower-case letters, digits and `_` (`status`, `command_list_ok_begin`).
    public var name: String
    public var arguments: [String]

    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An MPD error answer: `ACK [code@index] {command} message`. The codes are MPD's own (`ack.h`).
public struct MpdError: Error, Sendable, Equatable {
    public enum Code: Int, Sendable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case system = 52
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The error line for `command` at `index` in a command list (0 outside one).
    public func line(command: String, index: Int) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(message)\n"
    }
}
