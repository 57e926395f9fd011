import Foundation
import WavedialCore

/// A request on the control socket: one JSON object per line.
///
/// `{"command":"tune","value":"94.1"}`, `{"command":"volume","value":"40"}`,
/// `{"command":"sim_turn","steps":-3}`, `{"command":"sim_turn","steps":2,"knob":"volume"}`, `{"command":"sim_press","value":"favorite","long":true}`,
/// `{"command":"sim_ir","value":"KEY_VOLUMEUP","steps":4}` (a remote's key, held for 4 autorepeats),
/// `{"command":"sim_edges","edges":[{"line":"encoder.a","level":0,"after_ns":250000},…]}`,
/// `{"command":"data_changed","value":"favorites"}` (the CLI changed favorites or the location in the database),
/// `{"command":"subscribe"}` (then one status line per change).
public struct ControlRequest: Codable, Sendable, Equatable {
    public var command: String
    public var value: String?
    public var steps: Int?
    public var long: Bool?
    /// `sim_turn`: which knob, `tuning` (when absent) or `volume`.
    public var knob: String?
    /// `sim_edges`: raw edges of the simulated knob and buttons, decoded like GPIO edges.
    public var edges: [SignalEdge]?
    /// `alarm_add`: the alarm (`alarm_remove`/`alarm_enable`/`alarm_disable` name an id in `value`).
    public var alarm: AlarmRequest?

    public init(command: String, value: String? = nil, steps: Int? = nil, long: Bool? = nil, knob: String? = nil,
                edges: [SignalEdge]? = nil) {
        self.command = command
        self.value = value
        self.steps = steps
        self.long = long
        self.knob = knob
        self.edges = edges
    }

    /// A request about the alarms: `alarm_add` with `alarm`, the others with an id in `value`.
    public init(command: String, value: String? = nil, alarm: AlarmRequest?) {
        self.init(command: command, value: value)
        self.alarm = alarm
    }

    /// The commands the daemon understands.
    public static let commands: Set<String> = [
        "status", "subscribe", "play", "pause", "back", "forward", "tune", "volume", "mute", "favorite", "band",
        "lcd", "sync", "sim_turn", "sim_press", "sim_edges", "sim_ir", "reload", "data_changed",
        "sleep", "alarm_add", "alarm_list", "alarm_remove", "alarm_enable", "alarm_disable",
    ]
}

/// The daemon's answer: `ok`, and either what was asked for or the error in words.
public struct ControlResponse: Codable, Sendable, Equatable {
    public var ok: Bool
    public var error: String?
    public var status: RadioStatus?
    /// `lcd`: the display's rows as the terminal renderer draws them.
    public var lines: [String]?
    /// `sync`: what the catalog sync changed.
    public var sync: CatalogSyncSummary?
    /// `alarm_*`: the alarms after the request.
    public var alarms: [AlarmListing]?

    public init(ok: Bool, error: String? = nil, status: RadioStatus? = nil, lines: [String]? = nil,
                sync: CatalogSyncSummary? = nil) {
        self.ok = ok
        self.error = error
        self.status = status
        self.lines = lines
        self.sync = sync
    }

    public static func failure(_ message: String) -> ControlResponse { ControlResponse(ok: false, error: message) }
}
