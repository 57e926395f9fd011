import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// The network and stream rows of the fault matrix (docs/FAULTS.md), end to end: `wavediald --headless`
/// with a test config, driven by the CLI; each row checks what `status --json` and the LCD mirror say,
/// that sound comes back at the captured ALSA device by itself, and that the daemon lives on.
final class StreamFaultMatrixTests: XCTestCase {
    private var radio: RadioUnderTest?
    private var server: MisbehavingServer?
    private var icecast: IcecastServer?
    private var namespace: NetworkNamespace?
    private var follower: StatusFollower?

    override func tearDown() {
        follower?.stop()
        radio?.stop()
        server?.stop()
        icecast?.stop()
        namespace?.remove()
    }

    private static func uuid(_ n: Int) -> String { StationFixtures.uuid(900 + n) }

    /// The daemon with one station per misbehaving-server path, started at once.
    private func radioWithServer(_ paths: [String]) throws -> (RadioUnderTest, MisbehavingServer) {
        let server = try MisbehavingServer()
        self.server = server
        let stations = paths.enumerated().map { RadioUnderTest.StationSpec(uuid: Self.uuid($0), name: "Fault \($0)", url: server.url($1)) }
        let radio = try RadioUnderTest(stations: stations)
        self.radio = radio
        try radio.startDaemon()
        return (radio, server)
    }

    /// Follows every state the daemon publishes (the unpaced capture device makes playing and buffering alternate).
    private func follow(_ radio: RadioUnderTest) throws -> StatusFollower {
        let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
        self.follower = follower
        return follower
    }

    /// Tunes `uuid` and waits until a second of the tone has reached ALSA.
    private func tuneAndHear(_ radio: RadioUnderTest, _ uuid: String, timeout: TimeInterval = 20,
                             file: StaticString = #filePath, line: UInt = #line) {
        radio.tune(uuid, file: file, line: line)
        radio.waitFor("a second of audio", timeout: timeout, file: file, line: line) { radio.capturedFrames > 44_100 }
        XCTAssertEqual(PCMAnalysis.frequency(radio.captured, channels: 2, sampleRate: 44_100), 440, accuracy: 5,
                       file: file, line: line)
    }

    private func failedWith(_ radio: RadioUnderTest, _ words: String) -> Bool {
        let status = radio.status()
        return status["state"] as? String == "failed" && status["error"] as? String == words
    }

    // MARK: The stream

    func testIcecastKilledAndRestartedShowsReconnectingThenPlaysAgain() throws {
        let icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30))
        self.icecast = icecast
        let radio = try RadioUnderTest(stations: [.init(uuid: Self.uuid(0), name: "Tone FM", url: icecast.url)])
        self.radio = radio
        try radio.startDaemon()
        tuneAndHear(radio, Self.uuid(0))

        icecast.killIcecast()
        radio.waitFor("Reconnecting") { radio.error == "Reconnecting" }
        radio.assertLCDShows("Reconnecting")
        let before = radio.capturedFrames
        XCTAssertTrue(try icecast.startIcecastAndWaitForMount(timeout: 15))
        radio.assertSoundAgain(after: before)
        radio.waitFor("the error cleared") { radio.error == nil }
        radio.assertAlive()
    }

    func testStalledStreamShowsReconnectingAndPlaysWhenDataFlowsAgain() throws {
        let (radio, server) = try radioWithServer(["/live.mp3"])
        tuneAndHear(radio, Self.uuid(0))

        try server.setLive(stalled: true)
        // No byte for stall_timeout_seconds: the connection is dropped and tried again (which stalls too).
        radio.waitFor("Reconnecting") { radio.error == "Reconnecting" }
        radio.assertLCDShows("Reconnecting")
        Thread.sleep(forTimeInterval: 3)  // past start_timeout_seconds of silence: still trying, still the same words
        XCTAssertEqual(radio.error, "Reconnecting")
        radio.assertAlive()

        let before = radio.capturedFrames
        try server.setLive()
        radio.assertSoundAgain(after: before)
        radio.waitFor("the error cleared") { radio.error == nil }
        radio.assertAlive()
    }

    func testTrickleBelowTheBitrateIsBufferingAndRecovers() throws {
        let (radio, server) = try radioWithServer(["/live.mp3"])
        let follower = try follow(radio)
        tuneAndHear(radio, Self.uuid(0))

        // 1 kB/s of a 16 kB/s stream: bytes keep coming (no stall), too few to play through.
        try server.setLive(bytesPerSecond: 1000)
        let seen = follower.statuses.count
        let trickleStart = radio.capturedFrames
        // Polled as well as followed: a follower the loaded machine leaves behind may miss the change.
        var polled: [[String: Any]] = []
        let end = Date().addingTimeInterval(4)
        while Date() < end {
            polled.append(radio.status())
            Thread.sleep(forTimeInterval: 0.1)
        }
        let during = Array(follower.statuses.dropFirst(seen)) + polled
        XCTAssertTrue(during.contains { $0["state"] as? String == "buffering" }, "\(during)")
        XCTAssertFalse(during.contains { $0["state"] as? String == "failed" }, "a slow stream is not a failure: \(during)")
        XCTAssertLessThan(radio.capturedFrames - trickleStart, 3 * 44_100, "4 s at a sixteenth of the rate plays < 3 s")
        radio.assertAlive()

        let before = radio.capturedFrames
        try server.setLive()
        radio.assertSoundAgain(after: before)
        XCTAssertNil(radio.error)
        radio.assertAlive()
    }

    func testGarbageBetweenFramesIsSkippedWithoutNoise() throws {
        let (radio, _) = try radioWithServer(["/garbage.mp3?speed=4"])
        tuneAndHear(radio, Self.uuid(0))
        radio.waitFor("four seconds of audio") { radio.capturedFrames > 4 * 44_100 }
        let samples = radio.captured
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44_100), 440, accuracy: 20)
        // The tone's own peak, from the loudest 1 % of samples; decoded junk would stand far above it.
        let magnitudes = samples.map { abs(Int($0)) }.sorted()
        let tonePeak = magnitudes[magnitudes.count * 99 / 100]
        XCTAssertLessThan(magnitudes.last ?? 0, tonePeak * 3 / 2, "no noise bursts above the tone")
        XCTAssertNil(radio.error)
        XCTAssertFalse(radio.lcd().contains("not supported"), radio.lcd())
        radio.assertAlive()
    }

    // MARK: The server's answer

    func testHTTP404And500AreStationOfflineAndAPlayingStationComesBack() throws {
        let (radio, server) = try radioWithServer(["/notfound", "/error", "/live.mp3"])
        // A station that never played fails after start_timeout_seconds (the design's first-audio timeout).
        for index in 0..<2 {
            radio.tune(Self.uuid(index))
            radio.waitFor("Station offline (station \(index))") { failedWith(radio, "Station offline") }
            radio.assertLCDShows("Station offline")
        }
        XCTAssertEqual(radio.capturedFrames, 0, "nothing reached ALSA")
        radio.assertAlive()

        // A playing station whose server starts answering 500, then 404 (a mount gone): reconnecting, and
        // heard again by itself when the server serves it again.
        tuneAndHear(radio, Self.uuid(2))
        for status in [500, 404] {
            try server.setLive(httpStatus: status)
            radio.waitFor("Reconnecting on HTTP \(status)") { radio.error == "Reconnecting" }
            radio.assertLCDShows("Reconnecting")
        }
        Thread.sleep(forTimeInterval: 3)  // past start_timeout_seconds of silence: still trying
        XCTAssertEqual(radio.error, "Reconnecting")
        let before = radio.capturedFrames
        try server.setLive()
        radio.assertSoundAgain(after: before)
        radio.waitFor("the error cleared") { radio.error == nil }
        radio.assertAlive()
    }

    func testADeadStationSaysSoAfterTwoAttemptsWhileConnectingSaysWhatIsHappening() throws {
        let server = try MisbehavingServer()
        self.server = server
        // start_timeout_seconds = 60: a failure well before it is the dead station's own answer.
        let radio = try RadioUnderTest(stations: [
            .init(uuid: Self.uuid(0), name: "Gone FM", url: server.url("/notfound")),
            .init(uuid: Self.uuid(1), name: "Busy FM", url: server.url("/status/503")),
            .init(uuid: Self.uuid(2), name: "Nowhere FM", url: "http://wavedial-dead.invalid:8000/stream"),
        ], startTimeout: 60)
        self.radio = radio
        try radio.startDaemon()
        let follower = try follow(radio)

        radio.tune(Self.uuid(0))
        radio.waitFor("Station offline, HTTP 404") {
            failedWith(radio, "Station offline") && radio.status()["error_detail"] as? String == "HTTP 404 Not Found"
        }
        radio.assertLCDShows("Station offline")
        XCTAssertTrue(try radio.cli.run("status").stdout.contains("error: Station offline (HTTP 404 Not Found)"))
        let asked = server.requests("/notfound")
        XCTAssertTrue((1...2).contains(asked), "asked \(asked) times")
        XCTAssertTrue(follower.statuses.contains { $0["connecting_detail"] as? String == "Retrying (HTTP 404)…" },
                      "\(follower.statuses)")

        radio.tune(Self.uuid(2))
        radio.waitFor("Station offline, no such host") {
            failedWith(radio, "Station offline")
                && radio.status()["error_detail"] as? String == "no such host: wavedial-dead.invalid"
        }

        // An answer that may change: it keeps trying, and says why, on the LCD too.
        radio.tune(Self.uuid(1))
        radio.waitFor("Retrying (HTTP 503)") {
            radio.status()["connecting_detail"] as? String == "Retrying (HTTP 503)…"
        }
        radio.assertLCDShows("Retrying (HTTP 503)")
        radio.waitFor("four attempts") { server.requests("/status/503") >= 4 }
        XCTAssertEqual(radio.status()["state"] as? String, "connecting")
        XCTAssertNil(radio.error)
        radio.assertAlive()
    }

    func testRedirectLoopIsAPlainError() throws {
        let (radio, _) = try radioWithServer(["/loop"])
        radio.tune(Self.uuid(0))
        radio.waitFor("Station offline") { failedWith(radio, "Station offline") }
        radio.assertLCDShows("Station offline")
        XCTAssertTrue(radio.daemon?.log.contains("redirect") ?? false, "the log names the loop")
        radio.assertAlive()
    }

    func testICY200OKServerPlaysWithTitles() throws {
        let (radio, _) = try radioWithServer(["/icy.mp3"])
        tuneAndHear(radio, Self.uuid(0))
        radio.waitFor("a title") { (radio.status()["title"] as? String)?.hasPrefix("Fixture - Song") == true }
        radio.waitFor("the title on the LCD") { radio.lcd().contains("Fixture - Song") }
        XCTAssertNil(radio.error)
        radio.assertAlive()
    }

    func testWMAAndVideoOnlyHLSStationsAreFormatNotSupportedWithoutSound() throws {
        let (radio, _) = try radioWithServer(["/wma", "/video.m3u8"])
        for index in 0..<2 {
            radio.tune(Self.uuid(index))
            radio.waitFor("Format not supported (station \(index))") { failedWith(radio, "Format not supported") }
            radio.assertLCDShows("Format not supported")
        }
        XCTAssertEqual(radio.capturedFrames, 0, "no noise: nothing reached ALSA")
        radio.assertAlive()
    }

    // MARK: The network

    func testDNSFailureIsNoNetworkAndPlaysOnceTheNameResolves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let namespace = try NetworkNamespace(directory: directory)
        self.namespace = namespace
        let icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30), host: namespace.hostAddress)
        self.icecast = icecast
        // Under .test (RFC 6761), which resolvers treat as any name: here no DNS server answers for it (no
        // network), which is not its absence. A name under .invalid would be known absent, and dead at once.
        let host = "wavedial-fault.test"
        let radio = try RadioUnderTest(stations: [.init(uuid: Self.uuid(0), name: "Named FM",
                                                        url: "http://\(host):\(icecast.port)\(icecast.mount)")])
        self.radio = radio
        try radio.startDaemon(launcher: namespace.launcher)

        radio.tune(Self.uuid(0))
        radio.waitFor("No network") { failedWith(radio, "No network") }
        radio.assertLCDShows("No network")
        XCTAssertTrue(radio.daemon?.log.contains("resolve host") ?? false, "the name did not resolve: \(radio.daemon?.log ?? "")")
        Thread.sleep(forTimeInterval: 3)  // well past start_timeout_seconds: it keeps trying, and says so
        XCTAssertTrue(failedWith(radio, "No network"), "\(radio.status())")
        radio.assertAlive()

        // The name resolves again (written in place: the namespace's /etc/hosts is a bind mount of this file).
        let hosts = try FileHandle(forWritingTo: namespace.hostsFile)
        hosts.seekToEndOfFile()
        hosts.write(Data("\(namespace.hostAddress) \(host)\n".utf8))
        try hosts.close()
        radio.assertSoundAgain(after: 0)
        radio.waitFor("the error cleared") { radio.error == nil }
        radio.assertAlive()
    }

    func testNetworkDownForAMinuteSaysSoAndPlaysAgainWhenItIsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let namespace = try NetworkNamespace(directory: directory)
        self.namespace = namespace
        let icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30), host: namespace.hostAddress)
        self.icecast = icecast
        let radio = try RadioUnderTest(stations: [.init(uuid: Self.uuid(0), name: "Far FM", url: icecast.url)])
        self.radio = radio
        try radio.startDaemon(launcher: namespace.launcher)
        let follower = try follow(radio)
        tuneAndHear(radio, Self.uuid(0))

        let cut = Date()
        try namespace.cut()
        // The stream stalls and is dropped ("Reconnecting"); past start_timeout_seconds of silence with the
        // network unreachable it says what is wrong.
        radio.waitFor("No network") { failedWith(radio, "No network") }
        radio.assertLCDShows("No network")
        XCTAssertTrue(follower.statuses.contains { $0["error"] as? String == "Reconnecting" }, "\(follower.statuses.suffix(20))")
        Thread.sleep(forTimeInterval: max(0, 60 - Date().timeIntervalSince(cut)))
        XCTAssertTrue(failedWith(radio, "No network"), "after a minute: \(radio.status())")
        radio.assertLCDShows("No network")
        radio.assertAlive()

        let before = radio.capturedFrames
        try namespace.restore()
        radio.assertSoundAgain(after: before)
        radio.waitFor("the error cleared") { radio.error == nil }
        radio.assertAlive()
    }

    // MARK: The catalog

    func testRadioBrowserDownDuringSyncKeepsTheCatalogAndThePlay() throws {
        let (radio, _) = try radioWithServer(["/live.mp3", "/ok.mp3"])
        let database = try WavedialDatabase.open(path: radio.databasePath)
        let stationsBefore = try database.stationCount()
        XCTAssertEqual(stationsBefore, 2)
        tuneAndHear(radio, Self.uuid(0))

        radio.catalog.stop()  // both configured servers are down now
        let through = try radio.cli.run(["sync"])
        XCTAssertNotEqual(through.status, 0)
        XCTAssertTrue(through.stderr.contains("Radio Browser servers failed") && through.stderr.contains("connection refused"),
                      through.stderr)
        XCTAssertEqual(try database.stationCount(), stationsBefore, "the old catalog is kept")
        let during = radio.capturedFrames
        radio.assertSoundAgain(after: during)  // it kept playing
        XCTAssertNil(radio.error)
        XCTAssertFalse(radio.lcd().contains("offline"), radio.lcd())

        let before = radio.capturedFrames
        radio.tune(Self.uuid(1))  // still tunable
        radio.waitFor("the other station") {
            ((radio.status()["station"] as? [String: Any])?["stationuuid"] as? String) == Self.uuid(1)
        }
        radio.assertSoundAgain(after: before)
        radio.assertAlive()

        XCTAssertEqual(radio.daemon?.terminate(), 0)
        let direct = try radio.cli.run(["sync"])
        XCTAssertNotEqual(direct.status, 0)
        XCTAssertTrue(direct.stderr.contains("sync failed") && direct.stderr.contains("Radio Browser servers failed"), direct.stderr)
        XCTAssertEqual(try database.stationCount(), stationsBefore, "the old catalog is kept")
        for index in 0..<2 { XCTAssertNotNil(try database.station(uuid: Self.uuid(index)), "station \(index) kept") }
    }
}
