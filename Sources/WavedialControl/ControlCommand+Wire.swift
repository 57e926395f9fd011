import Foundation
import WavedialCore

extension ControlCommand: Codable {
    /// The command in a request line, or why it is refused: not a JSON object with a `command`, an
    /// unknown command, or a field out of bounds. The line comes from any local client: hostile.
    public init(wireLine line: String) throws(ControlRequestError) {
        guard let wire = try? JSONDecoder().decode(WireRequest.self, from: Data(line.utf8)) else {
            throw ControlRequestError(#"not a JSON request object with a "command""#)
        }
        try self.init(wire)
    }

    /// The command `name` with the one text argument the wire's `value` carries (`volume` "40", `tune` a
    /// frequency, `alarm_remove` an id), checked as a request line is: for the web page's API, which
    /// takes the same words.
    public init(name: String, value: String? = nil) throws(ControlRequestError) {
        try self.init(WireRequest(command: name, value: value))
    }

    public init(from decoder: Decoder) throws {
        try self.init(WireRequest(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try WireRequest(self).encode(to: encoder)
    }

    private init(_ wire: WireRequest) throws(ControlRequestError) {
        let refuse = ControlRequestError.init
        switch wire.command {
        case "status": self = .status
        case "subscribe": self = .subscribe
        case "play": self = .play
        case "pause": self = .pause
        case "back": self = .back
        case "forward": self = .forward
        case "mute": self = .mute
        case "favorite": self = .favorite
        case "band": self = .band
        case "lcd": self = .lcd
        case "sync": self = .sync
        case "reload": self = .reload
        case "alarm_list": self = .alarmList
        case "data_changed":
            guard let change = wire.value.flatMap(DataChange.init(rawValue:)) else {
                throw refuse("data_changed names what changed: favorites or location")
            }
            self = .dataChanged(change)
        case "volume":
            guard let text = wire.value else { self = .volume(nil); return }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (0...100).contains(value) else {
                throw refuse("volume must be a whole number from 0 to 100, not '\(text)'")
            }
            self = .volume(value)
        case "tune":
            guard let value = wire.value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                throw refuse("tune needs a frequency in MHz, a station or a stream URL")
            }
            self = .tune(value)
        case "sleep":
            guard let value = wire.value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                self = .sleep(seconds: nil)
                return
            }
            if value.lowercased() == "off" {
                self = .sleep(seconds: 0)
                return
            }
            do {
                self = .sleep(seconds: try SleepDuration.seconds(value))
            } catch {
                throw refuse("\(error)")
            }
        case "sim_turn":
            let bound = Self.maximumSimulatedSteps
            guard let steps = wire.steps, steps != 0, (-bound...bound).contains(steps) else {
                throw refuse("sim_turn needs steps: a whole number from -\(bound) to \(bound), not 0")
            }
            let knobName = wire.knob ?? Knob.tuning.rawValue
            guard let knob = Knob(rawValue: knobName) else {
                throw refuse("sim_turn knob must be tuning or volume, not '\(knobName.prefix(40))'")
            }
            self = .simTurn(steps: steps, knob: knob)
        case "sim_press":
            guard let button = wire.value.flatMap(Button.init(rawValue:)) else {
                throw refuse("sim_press needs a button: " + Button.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self = .simPress(button, long: wire.long == true)
        case "sim_edges":
            self = .simEdges(wire.edges ?? [])
        case "sim_ir":
            guard let key = wire.value, !key.isEmpty, key.utf8.count <= 64 else {
                throw refuse("sim_ir needs a key the kernel knows, e.g. KEY_VOLUMEUP or KEY_1")
            }
            let repeats = wire.steps ?? 0
            guard (0...Self.maximumSimulatedRepeats).contains(repeats) else {
                throw refuse("sim_ir steps (autorepeats while held) must be from 0 to \(Self.maximumSimulatedRepeats)")
            }
            self = .simIR(key: key, repeats: repeats)
        case "favorite_add", "favorite_remove", "favorite_move":
            guard let uuid = wire.value?.trimmingCharacters(in: .whitespaces).lowercased(), !uuid.isEmpty,
                  uuid.utf8.count <= Self.maximumStationIDLength else {
                throw refuse("\(wire.command) needs a stationuuid")
            }
            switch wire.command {
            case "favorite_add": self = .favoriteAdd(stationuuid: uuid)
            case "favorite_remove": self = .favoriteRemove(stationuuid: uuid)
            default:
                guard let position = wire.steps, (1...Self.maximumFavoritePosition).contains(position) else {
                    throw refuse("favorite_move needs a position (steps) from 1 to \(Self.maximumFavoritePosition)")
                }
                self = .favoriteMove(stationuuid: uuid, position: position)
            }
        case "favorites_import":
            guard let text = wire.value, !text.isEmpty else { throw refuse("favorites_import needs a favorites file's text") }
            self = .favoritesImport(text)
        case "location_set":
            guard let latitude = wire.latitude, let longitude = wire.longitude, (-90...90).contains(latitude),
                  (-180...180).contains(longitude) else {
                throw refuse("location_set needs latitude (-90 to 90) and longitude (-180 to 180) in degrees")
            }
            self = .locationSet(Coordinate(latitude: latitude, longitude: longitude))
        case "alarm_add":
            guard let alarm = wire.alarm else { throw refuse("alarm_add needs an alarm: time, days, stationuuid") }
            self = .alarmAdd(alarm)
        case "alarm_remove", "alarm_enable", "alarm_disable":
            guard let text = wire.value, text.utf8.count <= 20, let id = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                throw refuse("\(wire.command) needs an alarm's id (see 'wavedial alarm list')")
            }
            self = wire.command == "alarm_remove" ? .alarmRemove(id: id)
                : wire.command == "alarm_enable" ? .alarmEnable(id: id) : .alarmDisable(id: id)
        default:
            throw refuse("unknown command '\(wire.command)'")
        }
    }
}

/// The flat object a request is on the wire: the command's name and the fields its arguments take.
private struct WireRequest: Codable {
    var command: String
    var value: String?
    var steps: Int?
    var long: Bool?
    var knob: String?
    var edges: [SignalEdge]?
    var alarm: AlarmRequest?
    var latitude: Double?
    var longitude: Double?

    init(command: String, value: String? = nil, steps: Int? = nil, long: Bool? = nil, knob: String? = nil,
         edges: [SignalEdge]? = nil, alarm: AlarmRequest? = nil, coordinate: Coordinate? = nil) {
        self.command = command
        self.value = value
        self.steps = steps
        self.long = long
        self.knob = knob
        self.edges = edges
        self.alarm = alarm
        latitude = coordinate?.latitude
        longitude = coordinate?.longitude
    }

    init(_ command: ControlCommand) {
        let name = command.name
        switch command {
        case .status, .subscribe, .play, .pause, .back, .forward, .mute, .favorite, .band, .lcd, .sync, .reload, .alarmList:
            self.init(command: name)
        case .tune(let value):
            self.init(command: name, value: value)
        case .volume(let level):
            self.init(command: name, value: level.map(String.init))
        case .dataChanged(let change):
            self.init(command: name, value: change.rawValue)
        case .favoriteAdd(let uuid), .favoriteRemove(let uuid):
            self.init(command: name, value: uuid)
        case .favoriteMove(let uuid, let position):
            self.init(command: name, value: uuid, steps: position)
        case .locationSet(let coordinate):
            self.init(command: name, coordinate: coordinate)
        case .favoritesImport(let text):
            self.init(command: name, value: text)
        case .sleep(let seconds):
            self.init(command: name, value: seconds.map { $0 == 0 ? "off" : "\($0)s" })
        case .simTurn(let steps, let knob):
            self.init(command: name, steps: steps, knob: knob == .tuning ? nil : knob.rawValue)
        case .simPress(let button, let long):
            self.init(command: name, value: button.rawValue, long: long ? true : nil)
        case .simEdges(let edges):
            self.init(command: name, edges: edges)
        case .simIR(let key, let repeats):
            self.init(command: name, value: key, steps: repeats)
        case .alarmAdd(let alarm):
            self.init(command: name, alarm: alarm)
        case .alarmRemove(let id), .alarmEnable(let id), .alarmDisable(let id):
            self.init(command: name, value: String(id))
        }
    }
}
