import WavedialCore

extension ControlResponse {
    /// What an error reply is about, when a client acts on it (the CLI's exit code); on the wire
    /// `error_kind`, a string, beside `error`. Open like an error code: a kind this side does not
    /// know is kept as it came and treated as a plain refusal.
    public struct FailureKind: RawRepresentable, Codable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The database failed (SQLite: the disk is full, the file is corrupt).
        public static let database = FailureKind(rawValue: "database")
        /// What the request names does not exist (a station, an alarm).
        public static let notFound = FailureKind(rawValue: "not_found")

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// A refusal of `kind`.
    public static func failure(_ message: String, kind: FailureKind) -> ControlResponse {
        var response = ControlResponse(ok: false, error: message)
        response.errorKind = kind
        return response
    }

    /// A failure caused by `error`: of kind ``FailureKind/database`` when the database failed.
    public static func failure(_ message: String, cause error: any Error) -> ControlResponse {
        WavedialDatabase.isDatabaseFailure(error) ? failure(message, kind: .database) : failure(message)
    }
}
