import Dispatch
import XCTest
@testable import Audio

/// The one-way channel from the player to its audio thread, and the audio thread's own programme folded from it.
final class AudioCommandChannelTests: XCTestCase {
    private func names(_ commands: [AudioCommand]) -> [String] {
        commands.map { command in
            switch command {
            case .play(let session, _): return "play \(session?.station.id ?? "nothing")"
            case .pause: return "pause"
            case .resume: return "resume"
            case .setGain(let gain): return "gain \(gain)"
            case .setSweep(let setting): return "sweep \(setting.map { "\($0.level)" } ?? "off")"
            case .setTone(let on): return "tone \(on)"
            case .endSession(let session): return "end \(session.station.id)"
            case .shutDown: return "shut down"
            }
        }
    }

    private func session(_ id: String) -> StationSession {
        StationSession(station: PlayableStation(id: id, name: id, url: "http://127.0.0.1:9/\(id)"), settings: PlayerSettings(),
                       logger: .init(label: "test")) { _, _ in }
    }

    func testCommandsArriveInOrderOnceAndStaleOnesAreDropped() {
        let channel = AudioCommandChannel()
        let first = session("first"), second = session("second")
        channel.send(.setGain(0.5))
        channel.send(.play(first, tunedAt: 1))
        channel.send(.pause)
        channel.send(.setGain(0.25))
        channel.send(.endSession(first))
        XCTAssertEqual(names(channel.receive()), ["play first", "pause", "gain 0.25", "end first"])
        XCTAssertEqual(names(channel.receive()), [], "each command is received once")

        channel.send(.pause)
        channel.send(.resume)
        channel.send(.setTone(true))
        channel.send(.play(first, tunedAt: 2))
        channel.send(.setSweep(SweepMix.Setting(level: 0, noise: false)))
        channel.send(.play(second, tunedAt: 3))
        channel.send(.setSweep(nil))
        channel.send(.shutDown)
        XCTAssertEqual(names(channel.receive()), ["tone true", "play second", "sweep off", "shut down"])
    }

    func testManyCommandsToABlockedAudioThreadStayAHandful() {
        let channel = AudioCommandChannel()
        let sessions = (0..<4).map { session("s\($0)") }
        for index in 0..<10_000 {
            channel.send(.play(sessions[index % 4], tunedAt: Double(index)))
            channel.send(index % 2 == 0 ? .pause : .resume)
            channel.send(.setGain(Float(index % 100) / 100))
            channel.send(.setSweep(SweepMix.Setting(level: Double(index % 10) / 10, noise: true)))
        }
        let received = channel.receive()
        XCTAssertEqual(names(received), ["play s3", "resume", "gain 0.99", "sweep 0.9"])
    }

    func testWaitEndsWhenACommandIsSent() {
        let channel = AudioCommandChannel()
        let sent = expectation(description: "woken")
        DispatchQueue.global().async {
            channel.wait(timeout: 30)
            sent.fulfill()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { channel.send(.resume) }
        wait(for: [sent], timeout: 10)
        channel.wait(timeout: 30)  // a command waiting: returns at once
    }

    func testTheProgrammeFoldsTheCommands() {
        let first = session("first")
        var programme = AudioLoop.Programme(gain: 1)
        programme.apply(.play(first, tunedAt: 5))
        programme.apply(.pause)
        programme.apply(.endSession(first))
        XCTAssertTrue(programme.session === first)
        XCTAssertEqual(programme.tunedAt, 5)
        XCTAssertTrue(programme.paused)
        XCTAssertTrue(programme.ended === first)
        XCTAssertTrue(programme.leaves(first), "paused")
        programme.apply(.play(first, tunedAt: 6))
        XCTAssertFalse(programme.paused, "a new tune plays")
        XCTAssertNil(programme.ended)
        XCTAssertFalse(programme.leaves(first))
        programme.apply(.setTone(true))
        programme.apply(.setGain(0.5))
        programme.apply(.shutDown)
        XCTAssertTrue(programme.tone)
        XCTAssertEqual(programme.gain, 0.5)
        XCTAssertTrue(programme.leaves(first), "shutting down")
    }
}
