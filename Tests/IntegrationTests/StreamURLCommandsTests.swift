import Foundation
import Glibc
import WavedialTestSupport
import XCTest

/// `wavedial check-url` and `wavedial play-url` as a person runs them: `--config` like every command,
/// `play-url` with and without `wavedial-player` beside it, what a station sends kept from the terminal,
/// and the way out when a name lookup outlasts the stop.
final class StreamURLCommandsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var station: ICYStationServer!
    private var cli = CLIRunner()
    private static let title = "Plain Title - Song"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        station = try ICYStationServer(name: "Loopback FM", title: Self.title, directory: directory)
        // The station serves from loopback, which a typed URL may not reach unless the configuration allows it.
        cli.environment["WAVEDIAL_CONFIG"] = try config("")
    }

    override func tearDown() {
        station.stop()
        directory.remove()
    }

    /// `text` as a config file, with the loopback station allowed in its `[audio]` section.
    private func config(_ text: String) throws -> String {
        let path = directory.path("config-\(UUID().uuidString.prefix(8)).toml")
        let allowed = "allowed_addresses = [\"127.0.0.0/8\"]"
        let allowing = text.contains("[audio]") ? text.replacingOccurrences(of: "[audio]", with: "[audio]\n\(allowed)") : text + "\n[audio]\n\(allowed)\n"
        try allowing.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `wavedial` copied alone into a folder of its own: what `swift build --product wavedial` leaves.
    private func wavedialAlone() throws -> CLIRunner {
        var alone = cli
        alone.binary = URL(fileURLWithPath: directory.path("alone")).appendingPathComponent("wavedial")
        try FileManager.default.createDirectory(atPath: directory.path("alone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: cli.binary, to: alone.binary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("alone/wavedial-player")))
        return alone
    }

    private func assertHeardTheTone(_ capture: URL, file: StaticString = #filePath, line: UInt = #line) {
        let samples = AlsaCapture.samples(in: capture)
        XCTAssertGreaterThan(samples.count, 44_100, "at least half a second reached ALSA", file: file, line: line)
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44_100), 440, accuracy: 5, file: file, line: line)
    }

    /// Both commands read the config named by `--config`, given after or before the subcommand: here its
    /// User-Agent (sent to the station) and its ALSA device (where play-url's sound goes). A config that
    /// is not there is the config error every command gives.
    func testBothCommandsTakeTheConfigOption() throws {
        let capture = AlsaCapture.device(named: "config-option")
        let path = try config("""
            [audio]
            device = '\(capture.device)'
            user_agent = "config-check/1"
            """)
        let checked = try cli.run(["check-url", "--config", path, "--json", station.url])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertEqual(station.userAgents, ["config-check/1"])
        let leading = try cli.run(["--config", path, "check-url", station.url])
        XCTAssertEqual(leading.status, 0, leading.stderr)
        XCTAssertEqual(station.userAgents.last, "config-check/1")

        let played = try cli.run(["play-url", station.url, "--config", path, "--seconds", "3"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.contains("state: playing\n"), played.stdout)
        XCTAssertEqual(station.userAgents.last, "config-check/1")
        assertHeardTheTone(capture.file)

        for command in ["check-url", "play-url"] {
            let missing = try cli.run([command, "--config", directory.path("missing.toml"), station.url])
            XCTAssertEqual(missing.status, 78, "\(command): \(missing.stderr)")
            XCTAssertEqual(missing.stderrLines, ["wavedial: config \(directory.path("missing.toml")): no such file"], command)
        }
    }

    /// Without `wavedial-player` beside it, play-url plays in its own process and prints the same lines;
    /// a stream it cannot play still ends with the reason.
    func testPlayURLPlaysInProcessWithoutThePlayerBinary() throws {
        let alone = try wavedialAlone()
        let capture = AlsaCapture.device(named: "in-process")
        let played = try alone.run(["play-url", "--device", capture.device, "--seconds", "3", station.url])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.hasPrefix("state: idle\nstate: connecting\n"), played.stdout)
        XCTAssertTrue(played.stdout.contains("state: playing\n"), played.stdout)
        XCTAssertTrue(played.stdout.contains("title: \(Self.title)\n"), played.stdout)
        assertHeardTheTone(capture.file)

        let path = try config("[audio]\nstart_timeout_seconds = 1\n")
        let refused = "http://127.0.0.1:\(freeLoopbackPort())/live"
        let failed = try alone.run(["play-url", "--config", path, "--device", capture.device, refused])
        XCTAssertEqual(failed.status, 1, failed.stdout)
        XCTAssertTrue(failed.stdout.contains("state: failed: Station offline\n"), failed.stdout)
        XCTAssertTrue(failed.stderr.hasPrefix("wavedial: cannot play \(refused): Station offline ("), failed.stderr)
    }

    /// A station's name and titles may carry terminal escape sequences (raw, and as the HTML entities `&#27;`,
    /// `&#x1b;`, `&#x9b;` that ICY text decodes), other controls and bidi characters: check-url and play-url
    /// (with and without wavedial-player) print them without any, in text and in JSON.
    func testWhatTheStationSendsReachesTheTerminalWithoutControlCharacters() throws {
        station.stop()
        station = try ICYStationServer(name: TerminalTextTests.hostileStreamName, title: TerminalTextTests.hostileTitle,
                                       directory: directory)
        let cleanName = "]0;pwned Evil  [5mFM"
        let cleanTitle = "[2J ]0;pwned  [31mRed 1m  2mSong"
        let text = try cli.run(["check-url", station.url])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("name: \(cleanName)"), text.stdout.debugDescription)
        XCTAssertTrue(lines.contains("title: \(cleanTitle)"), text.stdout.debugDescription)
        let json = try cli.run(["check-url", "--json", station.url])
        let object = try XCTUnwrap(try json.json() as? [String: Any])
        XCTAssertEqual(object["name"] as? String, cleanName)
        XCTAssertEqual(object["title"] as? String, cleanTitle)

        let capture = AlsaCapture.device(named: "escapes")
        let player = try cli.run(["play-url", "--device", capture.device, "--seconds", "3", station.url])
        let alone = try wavedialAlone().run(["play-url", "--device", capture.device, "--seconds", "3", station.url])
        for result in [text, json, player, alone] {
            XCTAssertEqual(result.stdout.unprintableScalars, [], result.stdout.debugDescription)
            XCTAssertEqual(result.stderr.unprintableScalars, [], result.stderr.debugDescription)
        }
        for result in [player, alone] {
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("title: \(cleanTitle)\n"), result.stdout.debugDescription)
        }
    }

    /// A stop while a name lookup is still waiting for its DNS server: the `wd-net` thread stays inside
    /// libcurl (joining its resolver thread) past the player's wait, so play-url must leave without running
    /// the exit handlers (OpenSSL's would free what that thread uses), with its output complete and status 0.
    /// A preloaded library reports the exit handlers; the same play ending in time shows that it does.
    func testAStopDuringAHangingNameLookupLeavesWithoutTheExitHandlers() throws {
        guard getuid() == 0 else { throw XCTSkip("binding port 53 and a private mount of /etc/resolv.conf need root") }
        let probe = directory.path("report_exit_handlers.so")
        try TestMedia.run("cc", ["-shared", "-fPIC", "-o", probe,
                                 ProjectPaths.fixtures.appendingPathComponent("exit-handlers/report_exit_handlers.c").path])
        let nameServer = try SilentNameServer()
        defer { nameServer.close() }
        let resolver = directory.path("resolv.conf")
        try "nameserver \(nameServer.address)\noptions timeout:30 attempts:1\n".write(toFile: resolver, atomically: true, encoding: .utf8)
        let capture = AlsaCapture.device(named: "hanging-lookup")

        var preloaded = cli
        preloaded.environment["LD_PRELOAD"] = probe
        let help = try preloaded.run(["status", "--help"])
        XCTAssertEqual(help.stderr, "exit handlers ran\n", "the probe reports a normal exit")
        // play-url always leaves with _exit: dispatch's workers cannot be joined, and the handlers free what they may use.
        let inTime = try preloaded.run(["play-url", "--device", capture.device, "--seconds", "1", station.url])
        XCTAssertEqual(inTime.status, 0, inTime.stderr)
        XCTAssertEqual(inTime.stderr, "", "no exit handlers ran after a stop in time either")

        for runner in [cli, try wavedialAlone()] {
            // A private mount namespace sees the silent name server; the preload applies to wavedial alone.
            var hanging = CLIRunner()
            hanging.binary = URL(fileURLWithPath: "/usr/bin/unshare")
            let script = #"mount --bind "$1" /etc/resolv.conf && shift && exec "$@""#
            let result = try hanging.run(["--mount", "sh", "-c", script, "sh", resolver, "env", "LD_PRELOAD=\(probe)",
                                          runner.binary.path, "play-url", "--device", capture.device, "--seconds", "1",
                                          "http://stream.wavedial-test.example/live"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("state: idle\nstate: connecting\n"), result.stdout)
            XCTAssertTrue(result.stdout.hasSuffix("\n"), "the output is flushed before leaving: \(result.stdout)")
            XCTAssertEqual(result.stderr, "", "no exit handlers ran under the thread still in libcurl")
        }
    }
}

/// A UDP socket on port 53 of a loopback address that receives name queries and never answers them.
private final class SilentNameServer {
    let address: String
    private let socket: Int32

    init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        // Somewhere in 127/8 that no other test picked.
        address = "127.53.\(Int.random(in: 1...254)).\(Int.random(in: 1...254))"
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(53).bigEndian
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            Glibc.close(socket)
            throw FixtureError("bind \(address):53: \(String(cString: strerror(errno)))")
        }
    }

    func close() { Glibc.close(socket) }
}
