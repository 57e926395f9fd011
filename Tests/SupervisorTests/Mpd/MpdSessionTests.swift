import CurlSupport
import Foundation
@testable import Supervisor
import XCTest

/// One client's conversation: command lists, idle and noidle, the password and what it permits.
final class MpdSessionTests: XCTestCase {
    /// Answers `status` with a line, fails `frob` as MPD does an unknown command, records what ran.
    private var ran: [String] = []

    private func execute(_ command: MpdCommand, _ authorized: Bool) throws(MpdError) -> String {
        ran.append(command.name)
        switch command.name {
        case "status": return "state: play\n"
        case "play", "ping": return ""
        default: throw MpdError(.unknown, "unknown command \"\(command.name)\"")
        }
    }

    private func send(_ session: inout MpdSession, _ line: String) -> MpdSession.Reply {
        session.receive(line, execute: execute)
    }

    func testACommandIsAnsweredWithOKAndAnUnknownOneWithMPDsError() {
        var session = MpdSession(password: "", stateChanging: ["play"])
        XCTAssertEqual(send(&session, "status").text, "state: play\nOK\n")
        XCTAssertEqual(send(&session, "frob 1").text, "ACK [5@0] {frob} unknown command \"frob\"\n")
        XCTAssertEqual(send(&session, "\"x").text, "ACK [5@0] {} No command given\n")
        XCTAssertEqual(send(&session, "command_list_end").text, "ACK [1@0] {command_list_end} not in command list mode\n")
        XCTAssertEqual(send(&session, "close"), MpdSession.Reply(text: "", closes: true))
    }

    func testACommandListAnswersOnceAtItsEndAndStopsAtItsFirstFailure() {
        var session = MpdSession(password: "", stateChanging: [])
        XCTAssertEqual(send(&session, "command_list_ok_begin").text, "")
        XCTAssertEqual(send(&session, "status").text, "")
        XCTAssertEqual(send(&session, "ping").text, "")
        XCTAssertEqual(ran, [], "nothing runs before the list ends")
        XCTAssertEqual(send(&session, "command_list_end").text, "state: play\nlist_OK\nlist_OK\nOK\n")

        for line in ["command_list_begin", "status", "frob", "status"] { _ = send(&session, line) }
        XCTAssertEqual(send(&session, "command_list_end").text, "state: play\nACK [5@1] {frob} unknown command \"frob\"\n")
        XCTAssertEqual(ran, ["status", "ping", "status", "frob"], "nothing after the failure runs")

        for line in ["command_list_begin", "idle"] { _ = send(&session, line) }
        XCTAssertEqual(send(&session, "command_list_end").text, "ACK [2@0] {idle} idle is not allowed in a command list\n")
    }

    func testACommandListIsBounded() {
        var session = MpdSession(password: "", stateChanging: [])
        _ = send(&session, "command_list_begin")
        for _ in 0..<MpdSession.maximumCommandListLength { XCTAssertEqual(send(&session, "ping").text, "") }
        let reply = send(&session, "ping")
        XCTAssertTrue(reply.closes)
        XCTAssertTrue(reply.text.hasPrefix("ACK [2@1024] {command_list_begin} command list longer than 1024 commands"), reply.text)
        XCTAssertEqual(ran, [])

        var bytes = MpdSession(password: "", stateChanging: [])
        _ = send(&bytes, "command_list_begin")
        let long = "add \"" + String(repeating: "x", count: 4000) + "\""
        for _ in 0..<(MpdSession.maximumCommandListBytes / long.utf8.count) { XCTAssertEqual(send(&bytes, long).text, "") }
        XCTAssertTrue(send(&bytes, long).closes, "past the bytes a list may hold")
        XCTAssertEqual(ran, [])
    }

    func testIdleAnswersWithTheChangesItWaitsFor() {
        var session = MpdSession(password: "", stateChanging: [])
        XCTAssertNil(session.note([.mixer]), "not idle: kept for later")
        XCTAssertEqual(send(&session, "idle").text, "changed: mixer\nOK\n", "a change before idle answers at once")
        XCTAssertEqual(send(&session, "idle player playlist").text, "")
        XCTAssertTrue(session.isIdle)
        XCTAssertNil(session.note([.mixer]), "not a change it waits for")
        XCTAssertEqual(session.note([.playlist, .player]), "changed: playlist\nchanged: player\nOK\n")
        XCTAssertFalse(session.isIdle)
        XCTAssertEqual(send(&session, "idle player").text, "")
        XCTAssertEqual(send(&session, "noidle").text, "OK\n")
        XCTAssertEqual(send(&session, "idle").text, "changed: mixer\nOK\n", "the change it did not wait for was kept")
        XCTAssertEqual(send(&session, "idle frob").text, "ACK [2@0] {idle} Unrecognized idle event: frob\n")
        _ = send(&session, "idle")
        XCTAssertTrue(send(&session, "status").closes, "only noidle may come during idle")
    }

    func testWithAPasswordSetWhatChangesStateNeedsIt() {
        var session = MpdSession(password: "s3cret", stateChanging: ["play"])
        XCTAssertEqual(send(&session, "status").text, "state: play\nOK\n", "reading needs no password")
        XCTAssertEqual(send(&session, "play").text, "ACK [4@0] {play} you don't have permission for \"play\"\n")
        XCTAssertEqual(send(&session, "password wrong").text, "ACK [3@0] {password} incorrect password\n")
        XCTAssertEqual(send(&session, "password s3cre").text, "ACK [3@0] {password} incorrect password\n")
        XCTAssertEqual(send(&session, "password").text, "ACK [2@0] {password} wrong number of arguments for \"password\"\n")
        XCTAssertEqual(ran, ["status"])
        XCTAssertEqual(send(&session, "password s3cret").text, "OK\n")
        XCTAssertEqual(send(&session, "play").text, "OK\n")
        XCTAssertEqual(ran, ["status", "play"])

        var open = MpdSession(password: "", stateChanging: ["play"])
        XCTAssertEqual(send(&open, "play").text, "OK\n", "no password set: everything is permitted")
        XCTAssertEqual(send(&open, "password x").text, "ACK [3@0] {password} incorrect password\n")
    }

    /// MPD's `password` is judged where the web page's is: each wrong one slow, the address locked out after
    /// a few (shared with the web page), another address not.
    func testPasswordGuessesCountPerAddressWithTheWebPages() {
        let clock = Box<Double>(0), waits = Box<[Double]>([])
        let attempts = PasswordAttempts(now: { clock.value }, wait: { seconds in waits.update { $0.append(seconds) } })
        var guesser = MpdSession(password: "s3cret", stateChanging: ["play"], attempts: attempts, client: IPAddress("127.0.0.1"))
        for guess in 0..<PasswordAttempts.allowedFailures {
            XCTAssertEqual(send(&guesser, "password guess\(guess)").text, "ACK [3@0] {password} incorrect password\n")
        }
        XCTAssertEqual(waits.value.count, PasswordAttempts.allowedFailures)
        XCTAssertEqual(send(&guesser, "password s3cret").text, "ACK [3@0] {password} too many wrong passwords: try again in 1 s\n")
        XCTAssertFalse(guesser.isAuthorized)
        XCTAssertEqual(WebAuthentication(password: "s3cret", attempts: attempts).authorization(of: {
            var request = HttpRequest(method: "POST", path: "/api/play", headers: [("authorization", "Bearer s3cret")])
            request.peer = IPAddress("127.0.0.1")
            return request
        }()), .lockedOut(retryAfterSeconds: 1), "the web page's Bearer from the same address too")
        var other = MpdSession(password: "s3cret", stateChanging: ["play"], attempts: attempts, client: IPAddress("127.0.0.2"))
        XCTAssertEqual(send(&other, "password s3cret").text, "OK\n")
        clock.update { $0 += 1 }
        XCTAssertEqual(send(&guesser, "password s3cret").text, "OK\n")
    }

    /// A real brute force, in real time over several threads at once: slowed to a few judged guesses a
    /// second (bounded loosely: the point is tens, not thousands).
    func testABruteForceIsSlowedToAFewGuessesASecond() {
        let attempts = PasswordAttempts()
        let judged = Box<Int>(0)
        let deadline = Date().addingTimeInterval(2)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var guess = 0
            while Date() < deadline {
                guess += 1
                switch attempts.judge("guess-\(thread)-\(guess)", against: "s3cret", from: IPAddress("127.0.0.1")) {
                case .wrong: judged.update { $0 += 1 }
                case .lockedOut: usleep(10_000)
                case .accepted: XCTFail("a guess was right")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(judged.value, PasswordAttempts.allowedFailures)
        XCTAssertLessThanOrEqual(judged.value, PasswordAttempts.allowedFailures + 3, "in 2 s: the allowed, then one after each lockout")
    }
}
