import Foundation
import WavedialTestSupport
import XCTest

/// The MPD server of the real daemon headless (`[mpd] enabled` on a free loopback port), driven by the real
/// `mpc` and by python-mpd2 asking what Home Assistant's integration asks, over two loopback ICY stations.
final class DaemonMpdTests: XCTestCase {
    private static let first = "00000000-0000-4000-8000-0000000000d1"
    private static let second = "00000000-0000-4000-8000-0000000000d2"
    private static let title = "Song on the first station"
    private var directory: TemporaryDirectory!
    private var stations: [ICYStationServer] = []
    private var radio: RadioUnderTest!
    private var port = 0
    private var background: [Process] = []

    override func tearDown() {
        for process in background where process.isRunning { process.terminate() }
        radio?.stop()
        for station in stations { station.stop() }
        directory?.remove()
    }

    /// Starts the daemon with `[mpd]` holding `mpd` besides `enabled` and `port`.
    private func start(mpd: [String] = []) throws {
        directory = try TemporaryDirectory()
        stations = [try ICYStationServer(name: "First FM", title: Self.title, directory: directory),
                    try ICYStationServer(name: "Second FM", title: "Second song", directory: directory)]
        port = freeLoopbackPort()
        let section = (["[mpd]", "enabled = true", "port = \(port)"] + mpd).joined(separator: "\n")
        radio = try RadioUnderTest(stations: [.init(uuid: Self.first, name: "First FM", url: stations[0].url),
                                              .init(uuid: Self.second, name: "Second FM", url: stations[1].url)]) { config in
            config.extra += "\n" + section + "\n"
        }
        try radio.startDaemon()
        // The control socket answers before the MPD server has bound its port (its own service): a client
        // connecting at once can be refused.
        let deadline = Date().addingTimeInterval(10)
        while try mpc("status").stderr.contains("Connection refused") && Date() < deadline { usleep(50_000) }
    }

    /// `mpc` against the daemon's MPD server (MPD_HOST `password@host` when a password is given).
    private func mpc(_ arguments: String..., password: String? = nil) throws -> CLIRunner.Result {
        var runner = CLIRunner()
        runner.binary = URL(fileURLWithPath: "/usr/bin/mpc")
        runner.environment = ["MPD_HOST": (password.map { $0 + "@" } ?? "") + "127.0.0.1", "MPD_PORT": "\(port)"]
        return try runner.run(arguments, timeout: 30)
    }

    /// Waits until `uuid` is seen playing (once is enough: the loopback stream may run dry for a moment).
    private func waitUntilPlaying(_ uuid: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        var seen = false
        radio.waitFor(what, file: file, line: line) {
            let status = radio.status()
            seen = seen || (status["state"] as? String == "playing"
                && (status["station"] as? [String: Any])?["stationuuid"] as? String == uuid)
            return seen
        }
    }

    func testMpcControlsTheRadio() throws {
        try start()
        let playlist = try mpc("playlist")
        XCTAssertEqual(playlist.status, 0, playlist.stderr)
        XCTAssertTrue(playlist.stdout.contains("First FM") && playlist.stdout.contains("Second FM"), playlist.stdout)
        // The queue is the band, lowest frequency first: play the first station's entry, whichever it is.
        let position = playlist.stdout.split(separator: "\n").firstIndex { $0.contains("First FM") }.map { $0 + 1 } ?? 0
        XCTAssertEqual(try mpc("play", "\(position)").status, 0)
        waitUntilPlaying(Self.first, "the first station plays")
        radio.waitFor("mpc current tells the station and the ICY title") {
            (try? mpc("current").stdout) == "First FM: \(Self.title)\n"
        }
        let status = try mpc("status")
        XCTAssertTrue(status.stdout.contains("[playing] #\(position)/2"), status.stdout)

        XCTAssertEqual(try mpc("volume", "30").status, 0)
        XCTAssertEqual(radio.status()["volume"] as? Int, 30)
        XCTAssertEqual(try mpc("volume", "+5").status, 0)
        XCTAssertEqual(radio.status()["volume"] as? Int, 35)
        XCTAssertEqual(try mpc("volume", "-10").status, 0)
        XCTAssertEqual(radio.status()["volume"] as? Int, 25)
        XCTAssertTrue(try mpc("volume").stdout.contains("25%"))

        XCTAssertEqual(try mpc("next").status, 0)
        waitUntilPlaying(Self.second, "next steps along the dial to the other station")
        XCTAssertEqual(try mpc("prev").status, 0)
        waitUntilPlaying(Self.first, "prev steps back")
        XCTAssertEqual(try mpc("pause").status, 0)
        XCTAssertEqual(radio.status()["state"] as? String, "paused")
        XCTAssertTrue(try mpc("status").stdout.contains("[paused]"))
        XCTAssertEqual(try mpc("toggle").status, 0)
        waitUntilPlaying(Self.first, "toggle plays again")
        XCTAssertEqual(try mpc("stop").status, 0)
        XCTAssertEqual(radio.status()["state"] as? String, "paused", "stop pauses (a radio has nothing to rewind)")

        let playlists = try mpc("lsplaylists")
        XCTAssertEqual(playlists.stdout.split(separator: "\n"), ["favorites", "nearby"], playlists.stderr)
        XCTAssertEqual(try mpc("ls").stdout.split(separator: "\n"), ["favorites", "nearby"])
        XCTAssertTrue(try mpc("outputs").stdout.contains("Output 1 (Wavedial) is enabled"))
        XCTAssertEqual(try radio.cli.run("fav", "add", Self.second).status, 0)
        XCTAssertEqual(try mpc("load", "favorites").status, 0)
        XCTAssertEqual(radio.status()["band"] as? String, "favorites")
        XCTAssertEqual(try mpc("playlist").stdout, "Second FM\n", "the favorites band is the queue now")
        XCTAssertEqual(try mpc("load", "nearby").status, 0)
        XCTAssertEqual(radio.status()["band"] as? String, "nearby")
        let missing = try mpc("load", "elsewhere")
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("No such playlist"), missing.stderr)
        XCTAssertNotEqual(try mpc("seek", "10").status, 0)
    }

    func testIdleTellsOfChangesMadeElsewhere() throws {
        try start()
        let idle = Process()
        idle.executableURL = URL(fileURLWithPath: "/usr/bin/mpc")
        idle.arguments = ["idle", "mixer"]
        idle.environment = ["MPD_HOST": "127.0.0.1", "MPD_PORT": "\(port)"]
        let output = Pipe()
        idle.standardOutput = output
        try idle.run()
        background.append(idle)
        // mpc is idle once it has connected: the daemon serves one client more.
        usleep(500_000)
        XCTAssertEqual(try radio.cli.run("volume", "12").status, 0)
        let deadline = Date().addingTimeInterval(10)
        while idle.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertFalse(idle.isRunning, "mpc idle returned")
        XCTAssertEqual(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "mixer\n")
        XCTAssertTrue(try mpc("volume").stdout.contains("volume: 12%"))
    }

    func testHomeAssistantsClientSeesTheRadio() throws {
        try start()
        radio.tune(Self.first)
        radio.waitFor("the first station's title") { radio.status()["title"] as? String == Self.title }
        let answers = try homeAssistant(actions: ["setvol:25", "pause:1", "play", "frobnicate"])
        XCTAssertEqual(answers["version"] as? String, "0.23.0")
        let status = try XCTUnwrap(answers["status"] as? [String: Any])
        XCTAssertEqual(status["state"] as? String, "play")
        XCTAssertEqual(status["playlistlength"] as? String, "2")
        let song = try XCTUnwrap(answers["currentsong"] as? [String: Any])
        XCTAssertEqual(song["name"] as? String, "First FM")
        XCTAssertEqual(song["title"] as? String, Self.title)
        XCTAssertEqual(song["file"] as? String, "wavedial://station/\(Self.first)")
        XCTAssertEqual((answers["playlistinfo"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual((answers["listplaylists"] as? [[String: Any]])?.compactMap { $0["playlist"] as? String }, ["favorites", "nearby"])
        XCTAssertEqual((answers["outputs"] as? [[String: Any]])?.first?["outputenabled"] as? String, "1")
        XCTAssertTrue((answers["commands"] as? [String])?.contains("play") == true)
        XCTAssertEqual(answers["notcommands"] as? [String], [])
        XCTAssertTrue((answers["urlhandlers"] as? [String])?.contains("http://") == true)
        XCTAssertNotNil((answers["stats"] as? [String: Any])?["uptime"])
        XCTAssertEqual((answers["frobnicate"] as? [String: Any])?["error"] as? String, "[5@0] {frobnicate} unknown command \"frobnicate\"")
        let after = try XCTUnwrap(answers["status_after"] as? [String: Any])
        XCTAssertEqual(after["volume"] as? String, "25")
        XCTAssertEqual(radio.status()["volume"] as? Int, 25)
    }

    func testWithAPasswordOnlyReadingIsFree() throws {
        try start(mpd: ["password = \"kitchen-radio\""])
        XCTAssertEqual(try mpc("status").status, 0, "reading needs no password")
        let refused = try mpc("volume", "40")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("permission"), refused.stderr)
        XCTAssertNotEqual(radio.status()["volume"] as? Int, 40)
        let wrong = try mpc("volume", "40", password: "guess")
        XCTAssertTrue(wrong.stderr.contains("incorrect password"), wrong.stderr)
        XCTAssertEqual(try mpc("volume", "40", password: "kitchen-radio").status, 0)
        XCTAssertEqual(radio.status()["volume"] as? Int, 40)
        let answers = try homeAssistant(password: "kitchen-radio", actions: ["setvol:33"])
        XCTAssertNil((answers["setvol:33"] as? [String: Any])?["error"], "\(answers)")
        XCTAssertEqual(radio.status()["volume"] as? Int, 33)
    }

    func testAClientFromOutsideTheAllowListIsClosedAtOnce() throws {
        try start(mpd: ["allow = [\"192.0.2.0/24\"]"])
        let refused = try mpc("status")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("closed") || refused.stderr.contains("reset") || refused.stderr.contains("timeout"), refused.stderr)
        radio.assertAlive()
    }

    func testAnUnknownCommandAndAnOverlongLineGetMPDsAnswers() throws {
        try start()
        let client = try MpdLineClient(port: port)
        XCTAssertEqual(client.readLine(), "OK MPD 0.23.0")
        client.send("frobnicate 1 2\n")
        XCTAssertEqual(client.readLine(), "ACK [5@0] {frobnicate} unknown command \"frobnicate\"")
        client.send("command_list_ok_begin\nping\nstatus\ncommand_list_end\n")
        XCTAssertEqual(client.readLine(), "list_OK")
        client.send("play \"" + String(repeating: "x", count: 5000) + "\"\n")
        var lines: [String] = []
        while let line = client.readLine() { lines.append(line) }
        XCTAssertEqual(lines.last, "ACK [2@0] {} line longer than 4096 bytes", "then closed: \(lines)")
    }

    /// Runs `Tests/Fixtures/mpd_client.py` (python-mpd2) with `actions`; its JSON answer.
    private func homeAssistant(password: String = "", actions: [String]) throws -> [String: Any] {
        var runner = CLIRunner()
        runner.binary = URL(fileURLWithPath: "/usr/bin/python3")
        let script = ProjectPaths.fixtures.appendingPathComponent("mpd_client.py").path
        let result = try runner.run([script, "127.0.0.1", "\(port)", password] + actions, timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(result.json() as? [String: Any], result.stdout)
    }
}

/// A plain TCP client of the MPD server: lines out, lines in.
private final class MpdLineClient {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw FixtureError("cannot connect to the MPD server: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(handle.fileDescriptor, $0.baseAddress, text.utf8.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line; nil once the server closed (or said nothing for 10 s).
    func readLine() -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeFirst(end + 1) }
                return String(decoding: buffer[..<end], as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(handle.fileDescriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk.prefix(count)
        }
    }
}

/// The MPD server and the web page under systemd: `wavedial config sockets` writes their socket units from
/// `[mpd]` and `[web]`, and the daemon serves on the sockets it is handed (here by `systemd-socket-activate`,
/// as systemd would).
final class DaemonMpdSocketActivationTests: XCTestCase {
    func testConfigSocketsWritesTheUnitOfAnEnabledServerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var cli = CLIRunner()
        let config = directory.path("config.toml")
        try "[mpd]\nenabled = true\nport = 6611\nallow = [\"192.168.0.0/16\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        cli.environment["WAVEDIAL_CONFIG"] = config
        let units = directory.path("generator")
        let written = try cli.run("config", "sockets", units)
        XCTAssertEqual(written.status, 0, written.stderr)
        let unit = try String(contentsOfFile: units + "/wavediald-mpd.socket", encoding: .utf8)
        XCTAssertTrue(unit.contains("ListenStream=127.0.0.1:6611\n") && unit.contains("IPAddressAllow=192.168.0.0/16\n"), unit)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: units + "/sockets.target.wants/wavediald-mpd.socket"),
                       "../wavediald-mpd.socket")

        XCTAssertFalse(FileManager.default.fileExists(atPath: units + "/wavediald-web.socket"), "[web] is off")

        try "[mpd]\nenabled = true\n[web]\nenabled = true\nbind = \"::\"\nport = 8090\npassword = \"pw\"\nallow = [\"10.0.0.0/8\"]\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let both = directory.path("both")
        XCTAssertEqual(try cli.run("config", "sockets", both).status, 0)
        let web = try String(contentsOfFile: both + "/wavediald-web.socket", encoding: .utf8)
        XCTAssertTrue(web.contains("ListenStream=[::]:8090\n") && web.contains("FileDescriptorName=web\n")
                      && web.contains("IPAddressDeny=any\n") && web.contains("IPAddressAllow=10.0.0.0/8\n"), web)
        XCTAssertTrue(FileManager.default.fileExists(atPath: both + "/sockets.target.wants/wavediald-web.socket"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: both + "/wavediald-mpd.socket"))

        try "[mpd]\nenabled = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let none = directory.path("none")
        XCTAssertEqual(try cli.run("config", "sockets", none).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: none + "/wavediald-mpd.socket"))
        try "[mpd]\nenabled = true\nbind = \"0.0.0.0\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let refused = try cli.run("config", "sockets", none)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("mpd.password"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: none + "/wavediald-mpd.socket"))
    }

    /// The daemon started by `systemd-socket-activate` on a socket named `server` (`mpd`, `web`), whose section
    /// names another port: only the handed socket can answer. `body` gets the first connection, which started it.
    private func activated(_ server: String, uuid: String,
                           _ body: (MpdLineClient, DaemonProcess) throws -> Void) throws {
        let activate = "/usr/bin/systemd-socket-activate"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: activate), "systemd-socket-activate is not installed")
        let handed = freeLoopbackPort()
        let radio = try RadioUnderTest(stations: [.init(uuid: uuid, name: "Quiet FM", url: "http://127.0.0.1:9/")]) { config in
            config.extra += "\n[\(server)]\nenabled = true\nport = \(freeLoopbackPort())\n"
        }
        defer { radio.stop() }
        let daemon = try DaemonProcess(
            configPath: radio.configPath, socketPath: radio.socketPath, logPath: radio.directory.path("daemon.log"),
            launcher: [activate, "--listen=127.0.0.1:\(handed)", "--fdname=\(server)"])
        defer { _ = daemon.terminate() }
        // systemd-socket-activate starts the daemon at the first connection, which the daemon then serves.
        var connected: MpdLineClient?
        let deadline = Date().addingTimeInterval(10)
        while connected == nil && Date() < deadline {
            connected = try? MpdLineClient(port: handed)
            if connected == nil { usleep(100_000) }
        }
        try body(try XCTUnwrap(connected, "systemd-socket-activate listens"), daemon)
    }

    func testTheDaemonServesOnTheSocketSystemdHandsIt() throws {
        try activated("mpd", uuid: "00000000-0000-4000-8000-0000000000d9") { client, daemon in
            XCTAssertEqual(client.readLine(), "OK MPD 0.23.0", daemon.log)
            client.send("status\n")
            XCTAssertEqual(client.readLine()?.hasPrefix("volume: "), true)
            XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
        }
    }

    func testTheDaemonServesItsPageOnTheSocketSystemdHandsIt() throws {
        try activated("web", uuid: "00000000-0000-4000-8000-0000000000da") { client, _ in
            client.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            var lines: [String] = []
            while let line = client.readLine() { lines.append(line) }
            let reply = lines.joined(separator: "\n")
            XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200"), reply)
            // The status's JSON (its last line has no line break, which this line reader leaves unread).
            XCTAssertTrue(reply.contains("Content-Type: application/json"), reply)
        }
    }
}
