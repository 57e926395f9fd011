import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// SIGTERM in the middle of everything the daemon does, many times over: each stop must be the clean one
/// systemd asks for (fade out, close, flush, exit 0), never a crash from a thread still at work while
/// the process exits. `WAVEDIAL_SHUTDOWN_LOOPS` sets how many (CI runs the default; a stress run, hundreds).
final class DaemonShutdownTests: XCTestCase {
    private var radio: RadioUnderTest?
    private var server: MisbehavingServer?
    private var follower: StatusFollower?
    private var receiver: DatagramReceiver?

    override func tearDown() {
        follower?.stop()
        radio?.stop()
        server?.stop()
        receiver?.close()
    }

    func testSIGTERMWhilePlayingFollowedWatchedAndSyncingAlwaysExitsZero() throws {
        let loops = ProcessInfo.processInfo.environment["WAVEDIAL_SHUTDOWN_LOOPS"].flatMap(Int.init) ?? 30
        let server = try MisbehavingServer()
        self.server = server
        let uuid = StationFixtures.uuid(950)
        let radio = try RadioUnderTest(stations: [.init(uuid: uuid, name: "Tone", url: server.url("/ok.mp3"))])
        self.radio = radio
        let notifyPath = "/tmp/wd-notify-\(UUID().uuidString.prefix(8))"
        let receiver = try DatagramReceiver(path: notifyPath)
        self.receiver = receiver
        // systemd reads its notify socket at once; a full one would block the daemon's `sendto`.
        let finished = DispatchSemaphore(value: 0), drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while finished.wait(timeout: .now()) == .timedOut { _ = receiver.receive(timeout: 1) }
            drained.signal()
        }
        defer {
            finished.signal()
            drained.wait()
        }
        let environment = [
            "NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "100000",
            // A crash prints its backtrace into the daemon's log, which a failure shows.
            "SWIFT_BACKTRACE": "enable=yes,interactive=no",
        ]
        for round in 0..<loops {
            try radio.startDaemon(environment: environment)
            guard let daemon = radio.daemon, daemon.process.isRunning else { return XCTFail("round \(round): no daemon") }
            // The first round tunes and plays; later ones resume the station at start, so it is starting up.
            if round == 0 {
                radio.tune(uuid)
                radio.waitFor("the tone playing") { radio.capturedFrames > 0 }
            }
            let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
            self.follower = follower
            // Every other round a catalog sync runs on a control client's thread as the signal comes.
            let sync = round % 2 == 1 ? try startSync(radio) : nil
            // The signal lands at a different moment of the start each round: connecting, buffering, playing.
            usleep(UInt32(round % 6) * 80_000)
            let status = daemon.terminate()
            XCTAssertEqual(status, 0, "round \(round): exit status \(status.map(String.init) ?? "none (still running)"); "
                           + "log: \(daemon.log.suffix(4000))")
            sync?.waitUntilExit()
            follower.stop()
            self.follower = nil
            if status != 0 { return }
        }
    }

    /// `wavedial sync` in the background (its result does not matter: the daemon may stop under it).
    private func startSync(_ radio: RadioUnderTest) throws -> Process {
        let process = Process()
        process.executableURL = radio.cli.binary
        process.arguments = ["sync"]
        process.environment = ProcessInfo.processInfo.environment.merging(radio.cli.environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
