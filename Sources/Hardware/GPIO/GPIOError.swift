/// A failure to request or read GPIO lines, with a message a person can act on.
public struct GPIOError: Error, Sendable, CustomStringConvertible, Equatable {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The chip cannot be found by name, path or label.
        public static let chipNotFound = Code("chipNotFound")
        /// The chip has no such line offset or line name.
        public static let lineNotFound = Code("lineNotFound")
        /// Another process (usually wavediald) holds the line.
        public static let lineBusy = Code("lineBusy")
        /// Opening the chip was refused (not in the `gpio` group?).
        public static let permissionDenied = Code("permissionDenied")
        /// Any other failure of the named call.
        public static let system = Code("system")
        /// The backend cannot run here (e.g. `evdev` without a device).
        public static let unsupported = Code("unsupported")
    }

    public var code: Code
    public var message: String
    /// errno of the failing call, when there was one.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
