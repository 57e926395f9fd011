import Foundation
import Hardware
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

/// Load through the daemon in headless simulation, playing loopback Icecast stations: a knob
/// storm of raw bouncing edges (through `wavedial sim edges`, so the real decoder does the work)
/// among button presses, and hundreds of station switches. Nothing crashes, threads, descriptors
/// and memory stay flat, and the station the needle finally rests on plays.
///
/// `WAVEDIAL_STRESS_SEED` replays a run (the seed is in every failure message).
final class DaemonStormTests: XCTestCase {
    private typealias F = StationFixtures
    private var directory: TemporaryDirectory!
    private var icecast: IcecastServer!
    private var catalog: RadioBrowserTestServer!
    private var daemon: DaemonProcess!
    private var cli = CLIRunner()
    private var socketPath: String!
    private var seed: UInt64 = 0
    private var context: String { "seed \(seed) (rerun with WAVEDIAL_STRESS_SEED=\(seed))" }

    /// Stations every 0.4 MHz from 88.1 to 107.7, named after their frequency (the dial keeps it).
    private let frequencies = (0..<50).map { 88.1 + Double($0) * 0.4 }
    private func uuid(_ mhz: Double) -> String { F.uuid(Int((mhz * 10).rounded())) }
    private func name(_ mhz: Double) -> String { String(format: "Loop %.1f", mhz) }

    /// The lines of the default `[hardware]` wiring, by the index the signal generators use.
    private let roles = ["encoder.a", "encoder.b", "play", "pause", "back", "forward", "favorite"]

    override func setUpWithError() throws {
        seed = UInt64(ProcessInfo.processInfo.environment["WAVEDIAL_STRESS_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        directory = try TemporaryDirectory()
        icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30))
        let stations = frequencies.enumerated().map { index, mhz -> Station in
            var station = F.station(uuid(mhz), name(mhz), lat: 52.52 + Double(index) / 1000, lon: 13.40)
            station.url = icecast.url
            return station
        }
        catalog = try RadioBrowserTestServer(stations: F.radioBrowserJSON(stations), directory: directory)
        socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        let configPath = directory.path("config.toml")
        // A 10 ms acceleration threshold: the storm's fast spins accelerate, a 40 ms turn moves one channel a detent.
        var config = RadioConfigFile(directory: directory, catalog: catalog, socket: socketPath)
        config.dialStations = 60
        config.extra = "[hardware.encoder]\nacceleration_threshold_ms = 10"
        try config.write(to: configPath)
        cli.environment["WAVEDIAL_CONFIG"] = configPath
        XCTAssertEqual(try cli.run("sync").status, 0)
        daemon = try DaemonProcess(configPath: configPath, socketPath: socketPath, logPath: directory.path("daemon.log"))
        XCTAssertTrue(daemon.waitUntilReady(), daemon.log)
    }

    override func tearDown() {
        _ = daemon?.terminate()
        icecast.stop()
        catalog.stop()
        unlink(socketPath)
        directory.remove()
    }

    // MARK: Knob storm

    func testKnobStormWithBounceAndButtonsThenTheRestingStationPlays() throws {
        XCTAssertEqual(try cli.run("tune", uuid(98.1)).status, 0)
        try waitUntilPlaying { $0 == self.uuid(98.1) }
        var random = SeededRandom(seed: seed)
        var encoder = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(), missingStateProbability: 0.05,
                                             seed: seed)
        // Two storms: the first warms up what a storm may rightly allocate, the second must not grow it.
        try playStorm(&encoder, &random)
        let warm = try settledResources()
        try playStorm(&encoder, &random)
        let after = try settledResources()
        print("knob storm: \(detentsPlayed) detents, \(edgesPlayed) edges, \(pressesPlayed) presses; after the first storm \(warm), "
              + "after the second \(after); \(context)")
        XCTAssertTrue(daemon.process.isRunning, "the daemon survived, \(context)")
        XCTAssertLessThanOrEqual(after.threads, warm.threads + 4, "threads, \(context)")
        XCTAssertLessThanOrEqual(after.descriptors, warm.descriptors + 2, "descriptors, \(context)")
        XCTAssertLessThanOrEqual(after.residentKiB, warm.residentKiB + 4096, "resident memory, \(context)")

        // Where the needle rests is where it snaps, and that station plays.
        let rested = try status()
        let station = try XCTUnwrap(rested["station"] as? [String: Any], "\(rested), \(context)")
        XCTAssertEqual(station["frequency_mhz"] as? Double, rested["needle_mhz"] as? Double, "\(rested), \(context)")
        try waitUntilPlaying { $0 == station["stationuuid"] as? String }

        // Bouncing contacts turned slowly: each detent is exactly one channel, in both directions.
        XCTAssertEqual(try cli.run("tune", uuid(98.1)).status, 0)
        var slow = EncoderSignalGenerator(stepsPerDetent: .four, bounce: ContactBounce(maximumNanoseconds: 3_000_000, maximumChatters: 6),
                                          seed: seed &+ 1, at: encoder.time)
        try send(slow.turn(7, every: 40_000_000))  // 98.8: snaps up to 98.9
        try waitUntilPlaying { $0 == self.uuid(98.9) }
        slow.rest(500_000_000)
        try send(slow.turn(-4, every: 40_000_000))  // 98.5
        try waitUntilPlaying { $0 == self.uuid(98.5) }
        XCTAssertEqual((try status()["station"] as? [String: Any])?["name"] as? String, name(98.5), context)
    }

    private var detentsPlayed = 0, edgesPlayed = 0, pressesPlayed = 0

    /// About 1,500 detents in fast spins both ways (0.3–2 ms a detent, bouncing, some Gray-code
    /// states missed), a button press after each spin (two of them long presses on favorite,
    /// which switch to the favorites band and back), ending with a spin.
    private func playStorm(_ encoder: inout EncoderSignalGenerator, _ random: inout SeededRandom) throws {
        var edges: [GPIOEdge] = []
        let buttons = ["play", "pause", "back", "forward", "favorite"]
        for spin in 0..<13 {
            let detents = Int.random(in: 60...180, using: &random) * (Bool.random(using: &random) ? 1 : -1)
            edges += encoder.turn(detents, every: UInt64.random(in: 300_000...2_000_000, using: &random))
            detentsPlayed += abs(detents)
            encoder.rest(30_000_000)
            guard spin < 12 else { break }
            let long = spin == 4 || spin == 8
            let button = long ? "favorite" : buttons.randomElement(using: &random)!
            let hold: UInt64 = long ? 1_000_000_000 : UInt64.random(in: 60_000_000...150_000_000, using: &random)
            var generator = ButtonSignalGenerator(line: roles.firstIndex(of: button)!, seed: random.next())
            edges += generator.press(at: encoder.time, holdingFor: hold)
            pressesPlayed += 1
            encoder.rest(hold + 60_000_000)
        }
        try send(edges)
        // The signal plays in real time; wait for its end and the knob's rest.
        let seconds = Double(edges.last!.timestamp - edges.first!.timestamp) / 1e9
        Thread.sleep(forTimeInterval: seconds + 0.5)
    }

    /// Sends edges through `wavedial sim edges`, as the delays between them.
    private func send(_ edges: [GPIOEdge]) throws {
        var previous = edges.first?.timestamp ?? 0
        var text = "# \(edges.count) edges, \(context)\n"
        for edge in edges {
            text += "\(edge.timestamp - previous) \(roles[edge.line]) \(edge.level ? 1 : 0)\n"
            previous = edge.timestamp
        }
        let file = directory.path("signal-\(edgesPlayed).txt")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run("sim", "edges", file)
        XCTAssertEqual(result.status, 0, "\(result.stderr), \(context)")
        edgesPlayed += edges.count
    }

    // MARK: Station-switch storm

    func testHundredsOfStationSwitchesKeepThreadsSocketsAndMemoryFlat() throws {
        var random = SeededRandom(seed: seed)
        let client = try ControlLine(path: socketPath)
        defer { client.close() }
        func switches(_ count: Int) throws -> String {
            var last = ""
            for _ in 0..<count {
                last = uuid(frequencies.randomElement(using: &random)!)
                let reply = try client.request(#"{"command":"tune","value":"\#(last)"}"#)
                XCTAssertTrue(reply.contains(#""ok":true"#), "\(reply), \(context)")
            }
            return last
        }
        let first = try switches(30)
        try waitUntilPlaying(first)
        let warm = try settledResources()
        var samples: [ProcessResources] = []
        for _ in 0..<4 {
            _ = try switches(100)
            samples.append(try ProcessResources(pid: daemon.process.processIdentifier))
        }
        // Back on the station measured before the storm: a station's warm neighbours hold sockets, and
        // another station may have more of them on the dial.
        let reply = try client.request(#"{"command":"tune","value":"\#(first)"}"#)
        XCTAssertTrue(reply.contains(#""ok":true"#), "\(reply), \(context)")
        try waitUntilPlaying(first)
        let after = try settledResources()
        print("station-switch storm: 431 switches; warm \(warm); during: \(samples.map(\.description)); after \(after); \(context)")
        XCTAssertTrue(daemon.process.isRunning, context)
        XCTAssertLessThanOrEqual(after.threads, warm.threads + 4, "threads, \(context)")
        XCTAssertLessThanOrEqual(after.sockets, warm.sockets + 1, "sockets, \(context)")
        XCTAssertLessThanOrEqual(after.descriptors, warm.descriptors + 2, "descriptors, \(context)")
        XCTAssertLessThanOrEqual(after.residentKiB, warm.residentKiB + 4096, "resident memory, \(context)")
        // During the storm too, nothing piles up: sessions end as fast as they start (before cancelled
        // transfers woke at once, about a hundred of them were still winding down at any moment).
        XCTAssertLessThanOrEqual(samples.map(\.threads).max()!, warm.threads + 16, "threads during, \(context)")
        XCTAssertLessThanOrEqual(samples.map(\.sockets).max()!, warm.sockets + 16, "sockets during, \(context)")
    }

    // MARK: Helpers

    private func status() throws -> [String: Any] {
        let result = try cli.run("status", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(result.json() as? [String: Any])
    }

    private func waitUntilPlaying(_ uuid: String) throws { try waitUntilPlaying { $0 == uuid } }

    /// Waits until a status says `playing` for a station `matches` accepts (every state is followed,
    /// since the null device takes audio in bursts and the player alternates with buffering).
    private func waitUntilPlaying(_ matches: @escaping (String?) -> Bool) throws {
        let follower = try StatusFollower(binary: cli.binary, environment: cli.environment)
        defer { follower.stop() }
        let deadline = Date().addingTimeInterval(15)
        func playing() -> Bool {
            follower.statuses.contains {
                $0["state"] as? String == "playing" && matches(($0["station"] as? [String: Any])?["stationuuid"] as? String)
            }
        }
        while !playing() && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(playing(), "not playing; last status \(follower.statuses.last ?? [:]), \(context); \(daemon.log.suffix(1500))")
    }

    /// The daemon's resources once it has played on for a second (finished sessions wound down).
    private func settledResources() throws -> ProcessResources {
        Thread.sleep(forTimeInterval: 1)
        return try ProcessResources(pid: daemon.process.processIdentifier)
    }
}

/// One connection to the control socket, one request line and its reply line at a time.
private final class ControlLine {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws { fd = try StreamSocketProbe.connect(path) }

    func request(_ line: String) throws -> String {
        let bytes = Array((line + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !pending.contains(UInt8(ascii: "\n")) {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw CocoaError(.fileReadUnknown) }
            pending += buffer.prefix(count)
        }
        let newline = pending.firstIndex(of: UInt8(ascii: "\n"))!
        defer { pending.removeSubrange(...newline) }
        return String(decoding: pending[..<newline], as: UTF8.self)
    }

    func close() { Glibc.close(fd) }
}
