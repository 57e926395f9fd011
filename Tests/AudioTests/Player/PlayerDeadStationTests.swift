import CurlSupport
import Logging
import Threads
import WavedialTestSupport
import XCTest
@testable import Audio

/// Tuning to a dead station says so at once: a definitive answer (404, 410, other client errors, too
/// many redirects, a name that does not exist, a playlist of nothing or of such entries) ends a station
/// that never played after at most two attempts. The player's clock stands still here, so the start
/// timeout never passes and a pass proves the player did not wait for it; the attempts are counted at the server. An answer that may change (503,
/// 403, 429, 500) keeps the player trying, and so does a station that played, whatever its server says.
final class PlayerDeadStationTests: XCTestCase {
    private var server: MisbehavingServer!
    private var players: [Player] = []

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        players.forEach { $0.shutdown() }
        server.stop()
    }

    private func makePlayer() -> (Player, PlayerRecorder) {
        let settings = PlayerSettings(
            source: StreamSourceSettings(connectTimeout: 2, stallTimeout: 2, allowedAddresses: IPNetwork.loopback),
            startTimeout: 5)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        // The player's clock stands still: only the session's own rules end a station, never the start timeout.
        let player = Player(settings: settings, logger: logger, output: NullAudioOutput(), clock: ManualClock())
        players.append(player)
        return (player, PlayerRecorder(player))
    }

    private func station(_ path: String) -> PlayableStation {
        PlayableStation(id: path, name: path, url: server.url(path))
    }

    /// The failure the player gave up with, once it did.
    private func finalFailure(_ recorder: PlayerRecorder) -> PlaybackFailure? {
        if case .failed(let failure, false)? = recorder.statuses.last?.state { return failure }
        return nil
    }

    private func gaveUp(_ recorder: PlayerRecorder) -> Bool {
        recorder.states.contains { if case .failed(_, false) = $0 { return true } else { return false } }
    }

    func testDefinitiveHTTPAnswersAndDeadPlaylistsFailAfterAtMostTwoAttempts() {
        let cases: [(path: String, detail: String)] = [
            ("/notfound", "HTTP 404 Not Found"),
            ("/gone", "HTTP 410 Gone"),
            ("/status/400", "HTTP 400 Bad Request"),
            ("/status/401", "HTTP 401 Unauthorized"),
            ("/status/451", "HTTP 451 Unavailable For Legal Reasons"),
            ("/gone.m3u", "HTTP 410 Gone"),
            ("/empty.m3u", "playlist lists no streams"),
        ]
        for (path, detail) in cases {
            let (player, recorder) = makePlayer()
            player.play(station(path))
            XCTAssertTrue(recorder.wait(timeout: 20) { self.finalFailure($0) != nil }, "\(path): \(recorder.states)")
            XCTAssertEqual(finalFailure(recorder)?.code, .stationOffline, path)
            XCTAssertEqual(finalFailure(recorder)?.detail, detail, path)
            let asked = server.requests(path)
            XCTAssertTrue((1...2).contains(asked), "\(path) was asked \(asked) times")
            player.shutdown()
        }
    }

    func testRedirectLoopsAndEndlessRedirectsFailAfterAtMostTwoAttempts() {
        // Each attempt follows 5 redirects: 6 requests to a loop, one to the start of an endless chain.
        for (path, mostRequests) in [("/loop", 12), ("/hops/0", 2)] {
            let (player, recorder) = makePlayer()
            player.play(station(path))
            XCTAssertTrue(recorder.wait(timeout: 20) { self.finalFailure($0) != nil }, "\(path): \(recorder.states)")
            XCTAssertEqual(finalFailure(recorder)?.code, .stationOffline, path)
            XCTAssertEqual(finalFailure(recorder)?.detail, "too many redirects", path)
            let asked = server.requests(path)
            XCTAssertTrue((1...mostRequests).contains(asked), "\(path) was asked \(asked) times")
            player.shutdown()
        }
    }

    func testANameThatDoesNotExistFailsAsNoSuchHostAlsoBehindARedirect() {
        // RFC 6761: a name under .invalid never exists, with a network or without one.
        let (player, recorder) = makePlayer()
        player.play(PlayableStation(id: "nx", name: "NX FM", url: "http://wavedial-dead.invalid:8000/stream"))
        XCTAssertTrue(recorder.wait(timeout: 20) { self.finalFailure($0) != nil }, "\(recorder.states)")
        XCTAssertEqual(finalFailure(recorder)?.code, .stationOffline)
        XCTAssertEqual(finalFailure(recorder)?.detail, "no such host: wavedial-dead.invalid")
        player.shutdown()

        let (redirected, redirectedRecorder) = makePlayer()
        redirected.play(station("/nowhere"))
        XCTAssertTrue(redirectedRecorder.wait(timeout: 20) { self.finalFailure($0) != nil }, "\(redirectedRecorder.states)")
        XCTAssertEqual(finalFailure(redirectedRecorder)?.detail, "no such host: wavedial-nowhere.invalid")
        let asked = server.requests("/nowhere")
        XCTAssertTrue((1...2).contains(asked), "/nowhere was asked \(asked) times")
    }

    func testAnswersThatMayChangeKeepTheStationTryingPastTwoAttempts() {
        // 503 and 500: a server restarting or overloaded; 403: Icecast's full mount; 429: too many requests.
        for path in ["/status/503", "/error", "/status/403", "/status/429"] {
            let (player, recorder) = makePlayer()
            player.play(station(path))
            XCTAssertTrue(recorder.wait(timeout: 20) { _ in self.server.requests(path) >= 4 }, "\(path): \(recorder.states)")
            XCTAssertFalse(gaveUp(recorder), "\(path): \(recorder.states)")
            XCTAssertEqual(player.status.state, .connecting, path)
            player.shutdown()
        }
    }

    func testANetworkChangeCutsTheReconnectDelayShort() {
        // Reconnects 10 minutes apart: only the network change can bring the second attempt within the test.
        let settings = PlayerSettings(
            source: StreamSourceSettings(connectTimeout: 2, stallTimeout: 2, allowedAddresses: IPNetwork.loopback),
            reconnect: Backoff(initial: 600, maximum: 600), startTimeout: 5)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: settings, logger: logger, output: NullAudioOutput(), clock: ManualClock())
        players.append(player)
        let recorder = PlayerRecorder(player)
        player.play(station("/status/503"))
        XCTAssertTrue(recorder.wait(timeout: 20) { _ in self.server.requests("/status/503") == 1 })
        XCTAssertTrue(recorder.wait(timeout: 20) { $0.statuses.last?.connectionStage?.description == "Retrying (HTTP 503)…" },
                      "\(recorder.statuses.map(\.connectionStage))")
        player.networkChanged()
        XCTAssertTrue(recorder.wait(timeout: 20) { _ in self.server.requests("/status/503") >= 2 }, "retried at once")
        XCTAssertFalse(gaveUp(recorder), "\(recorder.states)")
    }

    func testWhileConnectingTheStatusSaysWhatIsHappening() {
        // A name to resolve (localhost, from /etc/hosts) and a server that sends its headers, then nothing.
        let (player, recorder) = makePlayer()
        player.play(PlayableStation(id: "silent", name: "Silent FM", url: "http://localhost:\(server.port)/silent.mp3"))
        let timedOut = ConnectionStage.retrying(PlaybackFailure(.timedOut, detail: "no data for 2.0 s"))
        XCTAssertTrue(recorder.wait(timeout: 20) { $0.statuses.contains { $0.connectionStage == timedOut } },
                      "\(recorder.statuses.map(\.connectionStage))")
        var stages: [ConnectionStage] = []
        for stage in recorder.statuses.compactMap(\.connectionStage) where stage != stages.last { stages.append(stage) }
        XCTAssertEqual(stages, [.resolving, .connecting, .waitingForAudio, timedOut])
        XCTAssertTrue(recorder.statuses.allSatisfy { $0.connectionStage == nil || $0.state == .connecting })
        player.shutdown()

        let (busy, busyRecorder) = makePlayer()
        busy.play(station("/status/503"))
        let retrying = "Retrying (HTTP 503)…"
        XCTAssertTrue(busyRecorder.wait(timeout: 20) { $0.statuses.last?.connectionStage?.description == retrying },
                      "\(busyRecorder.statuses.map(\.connectionStage))")
        XCTAssertEqual(busyRecorder.statuses.compactMap(\.connectionStage).first, .connecting, "an address: nothing to resolve")
    }

    func testAStationThatPlayedKeepsTryingWhenItsServerAnswers404() throws {
        let (player, recorder) = makePlayer()
        player.play(station("/live.mp3"))
        XCTAssertTrue(recorder.waitForState(timeout: 10) { $0.isPlaying }, "\(recorder.states)")
        let before = server.requests("/live.mp3")
        // A mount gone while its source reconnects: Icecast answers 404 meanwhile.
        try server.setLive(httpStatus: 404)
        XCTAssertTrue(recorder.wait(timeout: 20) { _ in self.server.requests("/live.mp3") >= before + 4 }, "\(recorder.states)")
        XCTAssertFalse(gaveUp(recorder), "\(recorder.states)")
        try server.setLive()
        XCTAssertTrue(recorder.wait(timeout: 20) { $0.statuses.last.map { $0.state == .playing && !$0.isReconnecting } ?? false },
                      "\(recorder.states)")
        XCTAssertFalse(gaveUp(recorder), "\(recorder.states)")
    }
}
