import Foundation
import WavedialControl
import WavedialCore
import XCTest

/// The control protocol's wire: every command is one flat JSON object, as the CLI has always sent it;
/// what decodes is a command the radio can carry out, and each refusal says why in the words clients see.
final class ControlCommandWireTests: XCTestCase {
    private func decode(_ line: String) throws(ControlRequestError) -> ControlCommand {
        try ControlCommand(wireLine: line)
    }

    private func refusal(_ line: String, file: StaticString = #filePath, line number: UInt = #line) -> String? {
        do {
            let command = try decode(line)
            XCTFail("\(line) decoded as \(command)", file: file, line: number)
            return nil
        } catch {
            return error.description
        }
    }

    private func wire(_ command: ControlCommand) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(command), as: UTF8.self)
    }

    /// The lines today's clients send (the CLI, scripts, the docs' examples) decode as before.
    func testTheLinesClientsSendDecodeToTheirCommands() throws {
        let cases: [(String, ControlCommand)] = [
            (#"{"command":"status"}"#, .status),
            (#"{"command":"tune","value":" 94.1 "}"#, .tune("94.1")),
            (#"{"command":"volume","value":"40"}"#, .volume(40)),
            (#"{"command":"volume"}"#, .volume(nil)),
            (#"{"command":"sim_turn","steps":-3}"#, .simTurn(steps: -3, knob: .tuning)),
            (#"{"command":"sim_turn","steps":2,"knob":"volume"}"#, .simTurn(steps: 2, knob: .volume)),
            (#"{"command":"sim_press","value":"favorite","long":true}"#, .simPress(.favorite, long: true)),
            (#"{"command":"sim_press","value":"volume_push"}"#, .simPress(.volumePush, long: false)),
            (#"{"command":"sim_ir","value":"KEY_VOLUMEUP","steps":4}"#, .simIR(key: "KEY_VOLUMEUP", repeats: 4)),
            (#"{"command":"sim_edges","edges":[{"line":"encoder.a","level":0,"after_ns":250000}]}"#,
             .simEdges([SignalEdge(line: "encoder.a", level: 0, afterNanoseconds: 250_000)])),
            (#"{"command":"data_changed","value":"favorites"}"#, .dataChanged(.favorites)),
            (#"{"command":"sleep","value":"1h30m"}"#, .sleep(seconds: 5400)),
            (#"{"command":"sleep","value":"OFF"}"#, .sleep(seconds: 0)),
            (#"{"command":"sleep","value":"  "}"#, .sleep(seconds: nil)),
            (#"{"command":"alarm_add","alarm":{"time":"07:00","days":"mon-fri"}}"#, .alarmAdd(AlarmRequest(time: "07:00", days: "mon-fri"))),
            (#"{"command":"alarm_enable","value":" 3 "}"#, .alarmEnable(id: 3)),
            (#"{"command":"subscribe","ignored":"field"}"#, .subscribe),
            (#"{"command":"favorite_add","value":" AAAA-1 "}"#, .favoriteAdd(stationuuid: "aaaa-1")),
            (#"{"command":"favorite_move","value":"u-1","steps":3}"#, .favoriteMove(stationuuid: "u-1", position: 3)),
            (#"{"command":"location_set","latitude":-33.92,"longitude":18.42}"#,
             .locationSet(Coordinate(latitude: -33.92, longitude: 18.42))),
        ]
        for (line, expected) in cases {
            XCTAssertEqual(try decode(line), expected, line)
        }
    }

    /// What the CLI writes: the flat object, with only the fields a command takes.
    func testCommandsAreWrittenAsTheFlatObject() throws {
        XCTAssertEqual(try wire(.tune("94.1")), #"{"command":"tune","value":"94.1"}"#)
        XCTAssertEqual(try wire(.volume(40)), #"{"command":"volume","value":"40"}"#)
        XCTAssertEqual(try wire(.volume(nil)), #"{"command":"volume"}"#)
        XCTAssertEqual(try wire(.simTurn(steps: 2, knob: .tuning)), #"{"command":"sim_turn","steps":2}"#, "no knob for the tuning knob, as before")
        XCTAssertEqual(try wire(.simTurn(steps: 2, knob: .volume)), #"{"command":"sim_turn","knob":"volume","steps":2}"#)
        XCTAssertEqual(try wire(.simPress(.push, long: true)), #"{"command":"sim_press","long":true,"value":"push"}"#)
        XCTAssertEqual(try wire(.sleep(seconds: 0)), #"{"command":"sleep","value":"off"}"#)
        XCTAssertEqual(try wire(.alarmRemove(id: 7)), #"{"command":"alarm_remove","value":"7"}"#)
        XCTAssertEqual(try wire(.dataChanged(.location)), #"{"command":"data_changed","value":"location"}"#)
    }

    /// Every command survives its wire, so what a client means is what the daemon reads.
    func testEveryCommandRoundTrips() throws {
        let commands: [ControlCommand] = [
            .status, .subscribe, .play, .pause, .back, .forward, .mute, .favorite, .band, .lcd, .sync, .reload,
            .tune("Radio Bob"), .volume(0), .volume(100), .volume(nil), .dataChanged(.favorites), .dataChanged(.location),
            .sleep(seconds: nil), .sleep(seconds: 0), .sleep(seconds: 1), .sleep(seconds: SleepDuration.maximumSeconds),
            .simTurn(steps: -ControlCommand.maximumSimulatedSteps, knob: .tuning), .simTurn(steps: 1, knob: .volume),
            .simIR(key: "KEY_1", repeats: ControlCommand.maximumSimulatedRepeats),
            .simEdges([SignalEdge(line: "play", level: 1, afterNanoseconds: 5)]),
            .alarmAdd(AlarmRequest(time: "06:30", days: nil, stationuuid: "u-1", stationName: "Bob")), .alarmList,
            .alarmRemove(id: Int64.max), .alarmEnable(id: -1), .alarmDisable(id: 0),
            .favoriteAdd(stationuuid: "u-1"), .favoriteRemove(stationuuid: "u-2"), .favoriteMove(stationuuid: "u-3", position: 1),
            .locationSet(Coordinate(latitude: 90, longitude: -180)), .favoritesImport("#EXTM3U\nhttp://a.example/\n"),
        ] + ControlCommand.Button.allCases.flatMap { [.simPress($0, long: false), .simPress($0, long: true)] }
        for command in commands {
            let line = String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
            XCTAssertEqual(try decode(line), command, line)
            XCTAssertEqual(try JSONDecoder().decode(ControlCommand.self, from: Data(line.utf8)), command, line)
        }
    }

    /// A refused request never reaches the radio; the client reads why, in the words it always did.
    func testRefusalsSayWhy() {
        let cases: [(String, String)] = [
            ("this is not json", #"not a JSON request object with a "command""#),
            (#"{"no_command":1}"#, #"not a JSON request object with a "command""#),
            (#"{"command":"tune","steps":"many"}"#, #"not a JSON request object with a "command""#),
            (#"{"command":"dance"}"#, "unknown command 'dance'"),
            (#"{"command":"tune"}"#, "tune needs a frequency in MHz, a station or a stream URL"),
            (#"{"command":"tune","value":"   "}"#, "tune needs a frequency in MHz, a station or a stream URL"),
            (#"{"command":"volume","value":"loud"}"#, "volume must be a whole number from 0 to 100, not 'loud'"),
            (#"{"command":"volume","value":"101"}"#, "volume must be a whole number from 0 to 100, not '101'"),
            (#"{"command":"sim_turn","steps":0}"#, "sim_turn needs steps: a whole number from -10000 to 10000, not 0"),
            (#"{"command":"sim_turn"}"#, "sim_turn needs steps: a whole number from -10000 to 10000, not 0"),
            (#"{"command":"sim_turn","steps":10001}"#, "sim_turn needs steps: a whole number from -10000 to 10000, not 0"),
            (#"{"command":"sim_turn","steps":1,"knob":"bass"}"#, "sim_turn knob must be tuning or volume, not 'bass'"),
            (#"{"command":"sim_press","value":"eject"}"#, "sim_press needs a button: play, pause, back, forward, favorite, push, volume_push"),
            (#"{"command":"sim_ir"}"#, "sim_ir needs a key the kernel knows, e.g. KEY_VOLUMEUP or KEY_1"),
            (#"{"command":"sim_ir","value":"KEY_1","steps":101}"#, "sim_ir steps (autorepeats while held) must be from 0 to 100"),
            (#"{"command":"data_changed","value":"weather"}"#, "data_changed names what changed: favorites or location"),
            (#"{"command":"alarm_add"}"#, "alarm_add needs an alarm: time, days, stationuuid"),
            (#"{"command":"alarm_remove","value":"x"}"#, "alarm_remove needs an alarm's id (see 'wavedial alarm list')"),
            (#"{"command":"alarm_disable","value":"99999999999999999999"}"#, "alarm_disable needs an alarm's id (see 'wavedial alarm list')"),
            (#"{"command":"favorite_add"}"#, "favorite_add needs a stationuuid"),
            (#"{"command":"favorites_import","value":""}"#, "favorites_import needs a favorites file's text"),
            (#"{"command":"favorite_remove","value":"\#(String(repeating: "u", count: 129))"}"#, "favorite_remove needs a stationuuid"),
            (#"{"command":"favorite_move","value":"u-1","steps":0}"#, "favorite_move needs a position (steps) from 1 to 100000"),
            (#"{"command":"location_set","latitude":91,"longitude":0}"#,
             "location_set needs latitude (-90 to 90) and longitude (-180 to 180) in degrees"),
            (#"{"command":"location_set","latitude":52}"#, "location_set needs latitude (-90 to 90) and longitude (-180 to 180) in degrees"),
            (#"{"command":"location_set","latitude":1e999,"longitude":0}"#, #"not a JSON request object with a "command""#),
        ]
        for (line, words) in cases {
            XCTAssertEqual(refusal(line), words, line)
        }
    }

    /// Sleep times are the CLI's words, checked on the daemon's side too; a hostile one comes back without
    /// control characters.
    func testRefusedSleepTimesAreCleaned() {
        for bad in ["0", "25h", "soon", "1h\u{1b}[2J", String(repeating: "9", count: 5000)] {
            let line = String(decoding: try! JSONEncoder().encode(["command": "sleep", "value": bad]), as: UTF8.self)
            let words = refusal(line) ?? ""
            XCTAssertTrue(words.hasPrefix("a sleep time is like"), words)
            XCTAssertFalse(words.contains("\u{1b}"), "no control characters in the answer")
        }
    }

    /// The web API's words (`/api/volume` with a value) are checked as the socket's are.
    func testANamedCommandWithATextValueIsCheckedAsALineIs() {
        XCTAssertEqual(try ControlCommand(name: "volume", value: "35"), .volume(35))
        XCTAssertEqual(try ControlCommand(name: "alarm_remove", value: "3"), .alarmRemove(id: 3))
        XCTAssertEqual(try ControlCommand(name: "play"), .play)
        XCTAssertThrowsError(try ControlCommand(name: "volume", value: "400")) { error in
            XCTAssertEqual((error as? ControlRequestError)?.description, "volume must be a whole number from 0 to 100, not '400'")
        }
    }

    /// The status's typed fields are the strings `status --json` has always had.
    func testStatusStatesAndBandsAreTheirWireWords() throws {
        var status = RadioStatus(state: .tuning, station: nil, title: nil, volume: 40, muted: false, favorite: false,
                                 error: nil, band: .favorites, needleMHz: 94.1, connectingDetail: nil, errorDetail: nil)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(status)) as? [String: Any])
        XCTAssertEqual(json["state"] as? String, "tuning")
        XCTAssertEqual(json["band"] as? String, "favorites")
        XCTAssertTrue(json.keys.contains("sleep_remaining_s") && json.keys.contains("next_alarm"), "null, not absent")
        XCTAssertEqual(Set(RadioStatus.State.allCases.map(\.rawValue)),
                       ["idle", "connecting", "buffering", "playing", "paused", "failed", "tuning"])
        status.state = .paused
        XCTAssertEqual(try JSONDecoder().decode(RadioStatus.self, from: JSONEncoder().encode(status)), status)
        status.error = .stationOffline
        let failed = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(status)) as? [String: Any])
        XCTAssertEqual(failed["error"] as? String, "Station offline", "the LCD's words on the wire")
        for problem in [RadioStatus.Problem.noNetwork, .reconnecting, .knobOffline, .other("Address not allowed")] {
            status.error = problem
            XCTAssertEqual(try JSONDecoder().decode(RadioStatus.self, from: JSONEncoder().encode(status)).error, problem)
        }
        XCTAssertEqual(RadioStatus.Problem(words: "Station not responding"), .notResponding)
        XCTAssertEqual(RadioStatus.Problem(words: "Something new"), .other("Something new"), "words of a newer daemon still read")
        let unknown = #"{"state":"dancing","volume":1,"muted":false,"favorite":false,"band":"nearby","needle_mhz":90}"#
        XCTAssertThrowsError(try JSONDecoder().decode(RadioStatus.self, from: Data(unknown.utf8)), "a state the protocol does not have")
    }
}
