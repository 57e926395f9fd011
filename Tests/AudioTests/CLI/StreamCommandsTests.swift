import WavedialTestSupport
import XCTest

/// `wavedial check-url` and `wavedial play-url`, run as the built executable against the misbehaving server.
final class StreamCommandsTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Runs the `wavedial` built next to this test bundle.
    private func wavedial(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("wavedial")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        let exit = process.waitForExit()
        return (exit?.status ?? -1, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    private func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testCheckURLReportsThePlaylistsStream() throws {
        let result = try wavedial(["check-url", "--json", server.url("/list.pls")])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try object(result.out)
        XCTAssertEqual(Set(json.keys), ["playable", "reason", "url", "codec", "bitrate", "sample_rate", "channels", "hls", "name", "title"])
        XCTAssertEqual(json["playable"] as? Bool, true)
        XCTAssertTrue(json["reason"] is NSNull)
        XCTAssertEqual(json["url"] as? String, server.url("/ok.mp3"))
        XCTAssertEqual(json["codec"] as? String, "MP3")
        XCTAssertEqual(json["bitrate"] as? Int, 128)
        XCTAssertEqual(json["sample_rate"] as? Int, 44100)
        XCTAssertEqual(json["channels"] as? Int, 2)
        XCTAssertEqual(json["hls"] as? Bool, false)
        XCTAssertEqual(json["name"] as? String, "Fixture FM")
        XCTAssertEqual(json["title"] as? String, "Fixture - Song 1")
    }

    func testCheckURLExplainsWhyNot() throws {
        for (path, reason) in [("/wma", "format_not_supported"), ("/notfound", "station_offline")] {
            let result = try wavedial(["check-url", "--json", "--timeout", "2", server.url(path)])
            XCTAssertEqual(result.status, 1, path)
            let json = try object(result.out)
            XCTAssertEqual(json["playable"] as? Bool, false, path)
            XCTAssertEqual(json["reason"] as? String, reason, path)
            XCTAssertTrue(result.err.hasPrefix("wavedial: cannot play"), result.err)
        }
    }

    /// A server that says no (HTTP 404, a refused connection) is the answer: the probe does not retry it
    /// until its time is up, as the player would. With a minute allowed, it answers long before.
    func testCheckURLAnswersARefusalAtOnce() throws {
        let refused = "http://127.0.0.1:\(freeLoopbackPort())/live.mp3"  // bound, then closed: nothing listens
        for url in [server.url("/notfound"), refused] {
            let started = Date()
            let result = try wavedial(["check-url", "--json", "--timeout", "60", url])
            XCTAssertEqual(result.status, 1, url)
            XCTAssertEqual(try object(result.out)["reason"] as? String, "station_offline", url)
            XCTAssertLessThan(Date().timeIntervalSince(started), 30, "\(url) was retried until the timeout")
        }
    }

    func testPlayURLPrintsStatesAndTitlesAndFailsWithTheReason() throws {
        let capture = AlsaCapture.device(named: "cli")
        let played = try wavedial(["play-url", "--device", capture.device, "--seconds", "2", server.url("/ok.mp3?speed=2")])
        XCTAssertEqual(played.status, 0, played.err)
        XCTAssertTrue(played.out.contains("state: playing\n"), played.out)
        XCTAssertTrue(played.out.contains("title: Fixture - Song 1\n"), played.out)
        XCTAssertFalse(AlsaCapture.samples(in: capture.file).isEmpty)

        let failed = try wavedial(["play-url", "--device", capture.device, server.url("/wma")])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.out.contains("state: failed: Format not supported"), failed.out)
        XCTAssertEqual(failed.err, "wavedial: cannot play \(server.url("/wma")): Format not supported (WMA)\n")
    }

    func testPlayURLWithNoNetworkEndsWithTheReason() throws {
        // The player keeps trying a station it cannot reach for want of a network; play-url, a diagnosis,
        // ends once the start timeout has passed. (TCP to a multicast address: "network unreachable", locally.)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.path("config.toml")
        try "[audio]\nstart_timeout_seconds = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        let capture = AlsaCapture.device(named: "cli-nonet")
        let result = try wavedial(["play-url", "--config", config, "--device", capture.device, "http://224.0.0.1:9/live"])
        XCTAssertEqual(result.status, 1, result.out)
        XCTAssertTrue(result.err.hasPrefix("wavedial: cannot play http://224.0.0.1:9/live: No network"), result.err)
    }

    func testPlayURLBecomesTheFoundationFreePlayerWithNamedThreads() throws {
        let capture = AlsaCapture.device(named: "cli-exec")
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("wavedial")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["play-url", "--device", capture.device, server.url("/ok.mp3")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let proc = "/proc/\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(10)
        func threadNames() -> Set<String> { ThreadNames.of(process.processIdentifier) }
        while !threadNames().isSuperset(of: ["wd-audio", "wd-net"]) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(threadNames().isSuperset(of: ["wd-audio", "wd-net"]), "\(threadNames())")
        // Under qemu-user (scripts/test.d/arm64-user) another process's exe is the emulator, a known
        // artifact; its maps below are still the player's.
        if ProcessInfo.processInfo.environment["WAVEDIAL_QEMU_USER"] == nil {
            let image = try FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/exe")
            XCTAssertEqual(URL(fileURLWithPath: image).lastPathComponent, "wavedial-player")
        }
        // The player's footprint is the point of the separate process: none of Foundation may come with it
        // (in this debug build Swift's libraries are shared objects, so each one linked shows in the map).
        // Read to the end: procfs files report no size, and a read by size stops at the first page.
        let maps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "\(proc)/maps")).readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(maps.contains("libmpg123"), "the map is the player's")
        XCTAssertFalse(maps.contains("Foundation"), maps.split(separator: "\n").filter { $0.contains("Foundation") }.joined(separator: "\n"))
        process.terminate()
        XCTAssertEqual(process.waitForExit(), .exited(0), "SIGTERM ends the play with a fade-out and status 0")
    }
}
