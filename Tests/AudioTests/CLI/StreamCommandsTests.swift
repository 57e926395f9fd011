import WavedialTestSupport
import XCTest

/// `wavedial check-url` and `wavedial play-url`, run as the built executable against the misbehaving server.
final class StreamCommandsTests: XCTestCase {
    private var server: MisbehavingServer!
    private var directory: TemporaryDirectory!
    /// The configuration the commands run with (`WAVEDIAL_CONFIG`): the server's loopback allowed, which
    /// the address policy of a URL the user typed refuses (it is the radio itself).
    private var config = ""

    /// This process's environment as it is now (the ALSA capture devices add to it) with ``config``.
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAVEDIAL_CONFIG"] = config
        return environment
    }

    override func setUpWithError() throws {
        server = try MisbehavingServer()
        directory = try TemporaryDirectory()
        config = directory.path("loopback.toml")
        try "[audio]\nallowed_addresses = [\"127.0.0.0/8\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        server.stop()
        directory.remove()
    }

    /// Runs the `wavedial` built next to this test bundle.
    private func wavedial(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let executable = ProjectPaths.product("wavedial")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
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

    /// A typed URL may reach the home network, never link-local, multicast or the radio itself: those
    /// are refused at once with the address and why, without a connection; a LAN address is tried.
    func testTypedURLsReachTheLANButNotLinkLocalMulticastOrTheRadioItself() throws {
        let strict = directory.path("strict.toml")
        try "[audio]\nstart_timeout_seconds = 2\n".write(toFile: strict, atomically: true, encoding: .utf8)
        for (url, refusal) in [
            ("http://169.254.169.254/latest/meta-data/", "address 169.254.169.254 (link-local) not allowed for a URL you typed"),
            ("http://[fe80::1]:8000/live", "address fe80::1 (link-local) not allowed for a URL you typed"),
            ("http://239.255.255.250:1900/", "address 239.255.255.250 (multicast) not allowed for a URL you typed"),
            ("http://0.0.0.0:\(server.port)/ok.mp3", "address 0.0.0.0 (unspecified) not allowed for a URL you typed"),
            (server.url("/ok.mp3"), "address 127.0.0.1 (loopback) not allowed for a URL you typed"),
        ] {
            let checked = try wavedial(["check-url", "--config", strict, "--json", "--timeout", "30", url])
            XCTAssertEqual(checked.status, 1, url)
            XCTAssertEqual(try object(checked.out)["reason"] as? String, "address_not_allowed", url)
            XCTAssertTrue(checked.err.hasSuffix("Address not allowed (\(refusal))\n"), checked.err)
            let capture = AlsaCapture.device(named: "cli-policy")
            let played = try wavedial(["play-url", "--config", strict, "--device", capture.device, url])
            XCTAssertEqual(played.status, 1, url)
            XCTAssertTrue(played.out.contains("state: failed: Address not allowed\n"), played.out)
            XCTAssertEqual(played.err, "wavedial: cannot play \(url): Address not allowed (\(refusal))\n")
        }
        // Nothing listens at this LAN address (or no route leads there): the policy lets the attempt through.
        let lan = try wavedial(["check-url", "--config", strict, "--json", "--timeout", "2", "http://192.168.255.254:9/live"])
        XCTAssertEqual(lan.status, 1)
        XCTAssertNotEqual(try object(lan.out)["reason"] as? String, "address_not_allowed", lan.err)
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
        // The address policy refuses multicast before the kernel would: this one address is let through.
        let nonetwork = directory.path("nonetwork.toml")
        try "[audio]\nstart_timeout_seconds = 1\nallowed_addresses = [\"224.0.0.1\"]\n".write(toFile: nonetwork, atomically: true, encoding: .utf8)
        let capture = AlsaCapture.device(named: "cli-nonet")
        let result = try wavedial(["play-url", "--config", nonetwork, "--device", capture.device, "http://224.0.0.1:9/live"])
        XCTAssertEqual(result.status, 1, result.out)
        XCTAssertTrue(result.err.hasPrefix("wavedial: cannot play http://224.0.0.1:9/live: No network"), result.err)
    }

    func testPlayURLBecomesTheFoundationFreePlayerWithNamedThreads() throws {
        let capture = AlsaCapture.device(named: "cli-exec")
        let executable = ProjectPaths.product("wavedial")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["play-url", "--device", capture.device, server.url("/ok.mp3")]
        process.environment = environment
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
