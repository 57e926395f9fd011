import CurlSupport
import Logging
import Threads
import WavedialTestSupport
import XCTest
@testable import Audio

/// The player keeps stations out of the house: a catalog station whose URL, redirect, playlist entry or
/// HLS segment leads to loopback is refused at connect with the reason, at once and for good, and the
/// server there never sees a connection. Servers on 127.0.0.2 stand for allowed public ones (the
/// configuration's exception names that address only); servers on 127.0.0.1 for the house.
final class PlayerAddressPolicyTests: XCTestCase {
    private var servers: [ScriptedHTTPServer] = []
    private var players: [Player] = []

    override func tearDown() {
        players.forEach { $0.shutdown() }
        servers.forEach { $0.stop() }
    }

    private func server(_ host: String) throws -> ScriptedHTTPServer {
        let server = try ScriptedHTTPServer(host: host)
        servers.append(server)
        return server
    }

    private func makePlayer(_ name: String, allowed: [String] = [], startTimeout: Double = 3,
                            clock: PlayerClock = MonotonicClock()) throws -> (Player, PlayerRecorder) {
        let settings = PlayerSettings(
            output: AlsaOutputSettings(device: AlsaCapture.device(named: name).device),
            source: StreamSourceSettings(connectTimeout: 2, stallTimeout: 3, allowedAddresses: try allowed.map { try XCTUnwrap(IPNetwork($0)) }),
            startTimeout: startTimeout)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: settings, logger: logger, clock: clock)
        players.append(player)
        return (player, PlayerRecorder(player))
    }

    private func failure(_ recorder: PlayerRecorder) -> (PlaybackFailure, willRetry: Bool)? {
        for state in recorder.states.reversed() {
            if case .failed(let failure, let willRetry) = state { return (failure, willRetry) }
        }
        return nil
    }

    func testACatalogStationOnLoopbackIsRefusedAndNeverConnected() throws {
        let house = try server("127.0.0.1")
        house.route("/live", .content("not audio", type: "audio/mpeg"))
        let (player, recorder) = try makePlayer("policy-loopback")
        player.play(PlayableStation(id: "evil", name: "Evil FM", url: house.url("/live")))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(recorder.states)")
        let (failure, willRetry) = try XCTUnwrap(failure(recorder))
        XCTAssertEqual(failure.code, .addressNotAllowed)
        XCTAssertEqual(failure.detail, "address 127.0.0.1 (loopback) not allowed for a catalog station")
        XCTAssertFalse(willRetry, "the station leads there again on every try")
        XCTAssertEqual(house.connections, 0)
    }

    func testAURLTheUserTypedMayNotReachTheRadioItselfUnlessTheConfigurationAllowsIt() throws {
        let house = try server("127.0.0.1")
        house.route("/live", .content("not audio", type: "audio/mpeg"))
        let (player, recorder) = try makePlayer("policy-typed")
        player.play(PlayableStation(id: "typed", name: "typed", url: house.url("/live"), addressPolicy: .userTyped))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(recorder.states)")
        XCTAssertEqual(failure(recorder)?.0.detail, "address 127.0.0.1 (loopback) not allowed for a URL you typed")
        XCTAssertEqual(house.connections, 0)

        let (allowing, allowingRecorder) = try makePlayer("policy-typed-allowed", allowed: ["127.0.0.1"], startTimeout: 1)
        allowing.play(PlayableStation(id: "typed", name: "typed", url: house.url("/live"), addressPolicy: .userTyped))
        XCTAssertTrue(allowingRecorder.waitForState(timeout: 8) { $0.isFailed }, "\(allowingRecorder.states)")
        XCTAssertGreaterThan(house.connections, 0, "allowed_addresses lets it through")
        XCTAssertNotEqual(failure(allowingRecorder)?.0.code, .addressNotAllowed)
    }

    func testARedirectOrAPlaylistEntryIntoTheHouseIsRefusedAtConnect() throws {
        let outside = try server("127.0.0.2")
        let house = try server("127.0.0.1")
        house.route("/admin", .content("<html>router</html>", type: "audio/mpeg"))
        outside.route("/redirect", .redirect(to: house.url("/admin")))
        outside.route("/list.m3u", .content("#EXTM3U\n\(house.url("/admin"))\n", type: "audio/x-mpegurl"))
        outside.route("/list.pls", .content("[playlist]\nFile1=\(outside.url("/redirect"))\nNumberOfEntries=1\n", type: "audio/x-scpls"))
        for path in ["/redirect", "/list.m3u", "/list.pls"] {
            let (player, recorder) = try makePlayer("policy-\(path.dropFirst())", allowed: ["127.0.0.2"])
            player.play(PlayableStation(id: path, name: path, url: outside.url(path)))
            XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isFailed }, "\(path): \(recorder.states)")
            XCTAssertEqual(failure(recorder)?.0.detail, "address 127.0.0.1 (loopback) not allowed for a catalog station", path)
            player.shutdown()
        }
        XCTAssertEqual(outside.requestedPaths.first, "/redirect", "the allowed server was asked")
        XCTAssertEqual(house.connections, 0)
    }

    /// 40 dead entries: an attempt tries the first 16 and gives up; nested playlists share that budget.
    func testAPlaylistOfFortyDeadEntriesIsTriedSixteenTimesAtMost() throws {
        let outside = try server("127.0.0.2")
        let entries = (1...40).map { outside.url("/dead/\($0)") }.joined(separator: "\n")
        outside.route("/dead.m3u", .content("#EXTM3U\n\(entries)\n", type: "audio/x-mpegurl"))
        let nested = (1...40).map { outside.url("/dead.m3u?list=\($0)") }.joined(separator: "\n")
        outside.route("/nested.m3u", .content("#EXTM3U\n\(nested)\n", type: "audio/x-mpegurl"))
        for path in ["/dead.m3u", "/nested.m3u"] {
            // The start timeout passes only once a whole attempt was made, however long that takes (seconds
            // under qemu-user): the player's clock is moved on when the second attempt begins.
            let clock = ManualClock()
            let (player, recorder) = try makePlayer("policy-dead", allowed: ["127.0.0.2"], startTimeout: 5, clock: clock)
            let before = outside.requestedPaths.count
            player.play(PlayableStation(id: path, name: path, url: outside.url(path)))
            let attempted = recorder.wait(timeout: 30) { _ in outside.requestedPaths[before...].filter { $0 == path }.count >= 2 }
            XCTAssertTrue(attempted || recorder.states.contains { $0.isFailed }, "\(path): \(outside.requestedPaths[before...])")
            clock.advance(by: 5)
            XCTAssertTrue(recorder.waitForState(timeout: 30) { $0.isFailed }, "\(path): \(recorder.states)")
            player.shutdown()
            // Each attempt starts with the station's own URL; what follows is what it tried.
            var attempts: [[String]] = []
            for requested in outside.requestedPaths[before...] {
                if requested == path { attempts.append([]) } else { attempts[attempts.count - 1].append(requested) }
            }
            XCTAssertFalse(attempts.isEmpty, path)
            // The last attempt may have been cut by the shutdown; every finished one tried exactly 16.
            for (index, tried) in attempts.enumerated() {
                if index < attempts.count - 1 || attempts.count == 1 {
                    XCTAssertEqual(tried.count, 16, "\(path): \(tried)")
                } else {
                    XCTAssertLessThanOrEqual(tried.count, 16, "\(path): \(tried)")
                }
            }
        }
    }

    /// An HLS master playlist on the allowed server whose media playlist lies in the house.
    func testAnHLSPlaylistLeadingIntoTheHouseIsRefused() throws {
        let outside = try server("127.0.0.2")
        let house = try server("127.0.0.1")
        house.route("/media.m3u8", .content("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg1.ts\n", type: "application/vnd.apple.mpegurl"))
        outside.route("/master.m3u8", .content("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"
            \(house.url("/media.m3u8"))

            """, type: "application/vnd.apple.mpegurl"))
        let (player, recorder) = try makePlayer("policy-hls", allowed: ["127.0.0.2"])
        player.play(PlayableStation(id: "hls", name: "hls", url: outside.url("/master.m3u8")))
        XCTAssertTrue(recorder.waitForState(timeout: 10) { $0.isFailed }, "\(recorder.states)")
        XCTAssertEqual(failure(recorder)?.0.code, .addressNotAllowed, "\(recorder.states)")
        XCTAssertEqual(house.connections, 0)
    }
}
