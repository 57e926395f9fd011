import FuzzDriver
import Foundation
import Supervisor
import WavedialControl

/// The MPD protocol on a hostile client's bytes: lines bounded as the server's ``LineReader`` bounds them,
/// each parsed (``MpdCommandParser``) and answered through a session (command lists, idle, password) by
/// the real ``MpdResponder`` over a radio whose station name and title hold line breaks and control
/// characters. A trap is a finding, as is an answer that is not whole protocol lines (`OK`, `list_OK`,
/// `ACK [code@index] {command} message`, `key: value`, `changed: subsystem`), which would let a station's
/// title or a client's word forge an answer.
@_cdecl("fuzz_mpd_command_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzMpdCommand(UnsafeRawPointer(data), count) }
}

/// A radio of two stations that plays the first; requests are answered without being carried out.
private final class HostileRadio: MpdRadio, @unchecked Sendable {
    let status: RadioStatus = {
        var status = try! JSONDecoder().decode(RadioStatus.self, from: Data("""
            {"state":"playing","volume":40,"muted":false,"favorite":false,"band":"nearby","needle_mhz":94.1,"sleep_remaining_s":null,"next_alarm":null,
             "station":{"stationuuid":"a\\nOK","name":"Bad\\r\\nACK [5@0] {x} y","frequency_mhz":94.1},
             "title":"Song\\nchanged: player\\u0000\\u001b[2J"}
            """.utf8))
        status.error = .other("HTTP 404\nOK")
        return status
    }()

    func dialListing() -> DialListing {
        let bad = DialListing.Entry(stationuuid: "a\nOK", name: "Bad\nOK", frequencyMHz: 94.1, favoriteNumber: nil)
        let plain = DialListing.Entry(stationuuid: "b", name: "Plain", frequencyMHz: 101.5, favoriteNumber: 1)
        return DialListing(band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 94.1, dial: [bad, plain], favorites: [plain])
    }

    func perform(_ command: ControlCommand) -> ControlResponse {
        guard case .tune(let target) = command else { return .failure("no\nOK") }
        return target.hasPrefix("b") ? ControlResponse(ok: true, status: status) : .failure("no\nOK")
    }

    func request(_ intent: RadioIntent) {}
    func subscribe(_ send: @escaping (RadioStatus) -> Bool) -> () -> Void { {} }
}

private let radio = HostileRadio()
private let responder = MpdResponder(radio: radio, startedAt: Date(timeIntervalSince1970: 0), playlistVersion: { 1 })

func fuzzMpdCommand(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    // The first byte picks whether a password is set, so both sides of the permission check are reached.
    // Wrong passwords are judged as the daemon judges them, without the wait that would slow the fuzzer.
    var session = MpdSession(password: bytes.first.map { $0 & 1 == 1 } == true ? "pw" : "", stateChanging: MpdResponder.stateChanging,
                             attempts: PasswordAttempts(wait: { _ in }))
    var reader = LineReader(maximumLength: MpdServer.maximumLineLength)
    for line in reader.feed(bytes) {
        guard case .line(let text) = line else { continue }
        if let command = try? MpdCommandParser.parse(text) {
            precondition(command.arguments.count <= MpdCommandParser.maximumArguments)
            precondition(!command.name.isEmpty && command.name.utf8.count <= MpdCommandParser.maximumNameLength)
        }
        let reply = session.receive(text) { command, authorized throws(MpdError) in
            try responder.answer(command, authorized: authorized)
        }
        check(reply.text)
        if reply.closes { break }
        if session.isIdle, let answer = session.note([.player]) { check(answer) }
    }
    return 0
}

/// Every answer is whole lines, each one the protocol's: nothing a station or a client sent can start a line.
private func check(_ text: String) {
    guard !text.isEmpty else { return }
    precondition(text.hasSuffix("\n"), "an answer ends its last line")
    for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
        precondition(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a control character in \(line.debugDescription)")
        let isProtocol = line == "OK" || line == "list_OK" || line.hasPrefix("ACK [") || line.contains(": ")
        precondition(isProtocol, "not a protocol line: \(line.debugDescription)")
        precondition(!line.hasPrefix("OK ") && !(line.hasPrefix("ACK") && !line.hasPrefix("ACK [")), "a forged line: \(line.debugDescription)")
    }
    let forged = text.split(separator: "\n").filter { $0 == "OK" }.count
    precondition(forged <= 1, "one OK per answer: \(text.debugDescription)")
}
