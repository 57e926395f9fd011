import Foundation
import WavedialCore

/// A request on the control socket, typed. The CLI, the MPD server, the web page and the terminal
/// simulator all speak it; the daemon carries each out (most as a ``RadioController`` intent).
///
/// On the wire it is one flat JSON object a line, as it always was: `{"command":"tune","value":"94.1"}`,
/// `{"command":"volume","value":"40"}`, `{"command":"sim_turn","steps":-3}`,
/// `{"command":"sim_turn","steps":2,"knob":"volume"}`, `{"command":"sim_press","value":"favorite","long":true}`,
/// `{"command":"sim_ir","value":"KEY_VOLUMEUP","steps":4}` (a remote's key, held for 4 autorepeats),
/// `{"command":"sim_edges","edges":[{"line":"encoder.a","level":0,"after_ns":250000},…]}`,
/// `{"command":"data_changed","value":"favorites"}`, `{"command":"subscribe"}` (then one status line per
/// change). Decoding checks every field (``ControlCommand/init(wireLine:)``), so a command that exists is
/// one the radio can carry out; what needs the radio's own state (a station's name, a key in the
/// remote's map) is judged there.
public enum ControlCommand: Sendable, Equatable {
    case status
    /// One status line now and one per change, until the client leaves.
    case subscribe
    case play
    case pause
    case back
    case forward
    /// Mutes, or unmutes.
    case mute
    /// Marks the tuned station a favorite, or unmarks it.
    case favorite
    /// The nearby band and the favorites band, in turn.
    case band
    /// A frequency in MHz on the band shown, a station's name or uuid, or a stream URL (trimmed, not empty).
    case tune(String)
    /// Sets the volume (0–100); nil asks for the status only.
    case volume(Int?)
    /// The display's rows.
    case lcd
    /// A catalog sync now.
    case sync
    /// The configuration read again.
    case reload
    /// The favorites or the location changed in the database (the daemon's own writes for the CLI, or a
    /// client that wrote the database itself): the bands follow, the configuration stays (that is `reload`).
    case dataChanged(DataChange)
    /// The CLI's changes while the daemon runs, which writes them (`wavedial fav add|remove|move`,
    /// `wavedial location set`); the bands follow.
    case favoriteAdd(stationuuid: String)
    case favoriteRemove(stationuuid: String)
    /// To `position`, 1 the first.
    case favoriteMove(stationuuid: String, position: Int)
    case locationSet(Coordinate)
    /// A part of a favorites file (``FavoritesFile``: a JSON export or an M3U playlist, as `fav import` reads
    /// it), checked again and imported by the daemon; a file larger than a request comes in parts.
    case favoritesImport(String)
    /// The sleep timer: seconds from now (0: off); nil asks for the status only.
    case sleep(seconds: Int?)
    /// The simulated knob turned by `steps` detents (never 0).
    case simTurn(steps: Int, knob: Knob)
    /// A simulated button clicked, or held (`long`).
    case simPress(Button, long: Bool)
    /// Raw edges on the simulated lines, decoded as GPIO edges are (checked by the daemon, which knows
    /// whether it simulates).
    case simEdges([SignalEdge])
    /// The remote's key `key` (a kernel key name, at most 64 bytes) pressed, held for `repeats` autorepeats.
    case simIR(key: String, repeats: Int)
    case alarmAdd(AlarmRequest)
    case alarmList
    case alarmRemove(id: Int64)
    case alarmEnable(id: Int64)
    case alarmDisable(id: Int64)

    /// What the CLI changed in the database.
    public enum DataChange: String, Sendable, CaseIterable {
        case favorites, location
    }

    /// The simulator's knobs.
    public enum Knob: String, Sendable, CaseIterable {
        case tuning, volume
    }

    /// The radio's buttons, as `sim_press` names them: the five, the tuning knob's push and the volume knob's.
    public enum Button: String, Sendable, CaseIterable {
        case play, pause, back, forward, favorite, push
        case volumePush = "volume_push"
    }

    /// The longest `sim_turn`, either way.
    public static let maximumSimulatedSteps = 10_000
    /// The most autorepeats one `sim_ir` request holds a key for (about 12 s of the kernel's default rate).
    public static let maximumSimulatedRepeats = 100
    /// The longest stationuuid a request names (Radio Browser's are 36 characters).
    public static let maximumStationIDLength = 128
    /// The last position a favorite can be moved to (more favorites than an import may hold).
    public static let maximumFavoritePosition = 100_000

    /// The command's name on the wire.
    public var name: String {
        switch self {
        case .status: return "status"
        case .subscribe: return "subscribe"
        case .play: return "play"
        case .pause: return "pause"
        case .back: return "back"
        case .forward: return "forward"
        case .mute: return "mute"
        case .favorite: return "favorite"
        case .band: return "band"
        case .tune: return "tune"
        case .volume: return "volume"
        case .lcd: return "lcd"
        case .sync: return "sync"
        case .reload: return "reload"
        case .dataChanged: return "data_changed"
        case .favoriteAdd: return "favorite_add"
        case .favoriteRemove: return "favorite_remove"
        case .favoriteMove: return "favorite_move"
        case .locationSet: return "location_set"
        case .favoritesImport: return "favorites_import"
        case .sleep: return "sleep"
        case .simTurn: return "sim_turn"
        case .simPress: return "sim_press"
        case .simEdges: return "sim_edges"
        case .simIR: return "sim_ir"
        case .alarmAdd: return "alarm_add"
        case .alarmList: return "alarm_list"
        case .alarmRemove: return "alarm_remove"
        case .alarmEnable: return "alarm_enable"
        case .alarmDisable: return "alarm_disable"
        }
    }

    /// Whether it concerns the alarms (the reply lists them).
    public var isAboutAlarms: Bool {
        switch self {
        case .alarmAdd, .alarmList, .alarmRemove, .alarmEnable, .alarmDisable: return true
        default: return false
        }
    }
}

/// Why a control request was refused before it reached the radio, in the words the client is sent.
public struct ControlRequestError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
