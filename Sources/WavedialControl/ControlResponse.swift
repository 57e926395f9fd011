import Foundation
import WavedialCore

/// The daemon's answer: `ok`, and either what was asked for or the error in words.
public struct ControlResponse: Codable, Sendable, Equatable {
    public var ok: Bool
    public var error: String?
    /// With `error`: what it is about, when a client should act on it (``FailureKind``); nil for a plain refusal.
    public var errorKind: FailureKind?
    public var status: RadioStatus?
    /// `lcd`: the display's rows as the terminal renderer draws them.
    public var lines: [String]?
    /// `sync`: what the catalog sync changed.
    public var sync: CatalogSyncSummary?
    /// `alarm_*`: the alarms after the request.
    public var alarms: [AlarmListing]?
    /// `favorite_add`: whether it was added (false: it was a favorite already).
    public var added: Bool?
    /// `favorite_move`: the position it took (the last one when asked for one past the end).
    public var position: Int?
    /// `favorites_import`: how many were added (those already favorites keep their place).
    public var imported: Int?

    public init(ok: Bool, error: String? = nil, status: RadioStatus? = nil, lines: [String]? = nil,
                sync: CatalogSyncSummary? = nil) {
        self.ok = ok
        self.error = error
        self.status = status
        self.lines = lines
        self.sync = sync
    }

    public static func failure(_ message: String) -> ControlResponse { ControlResponse(ok: false, error: message) }

    private enum CodingKeys: String, CodingKey {
        case ok, error, errorKind = "error_kind", status, lines, sync, alarms, added, position, imported
    }
}
