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
            // Odd rounds start with no catalog: the daemon's first act is a sync, whose first libcurl call
            // (OpenSSL's set-up) may still be under way when the signal comes, 0–35 ms after the socket opens. Even rounds
            // play, with a sync asked for over the socket, and the signal lands while connecting, buffering
            // or playing.
            let fresh = round % 2 == 1
            if fresh {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: radio.databasePath + suffix) }
            } else if round > 0 {
                XCTAssertEqual(try radio.cli.run("sync").status, 0)
            }
            try radio.startDaemon(environment: environment)
            guard let daemon = radio.daemon, daemon.process.isRunning else { return XCTFail("round \(round): no daemon") }
            let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
            self.follower = follower
            var sync: Process?
            if fresh {
                usleep(UInt32(round / 2 % 8) * 5_000)
            } else {
                radio.tune(uuid)
                if round == 0 { radio.waitFor("the tone playing") { radio.capturedFrames > 0 } }
                sync = try startSync(radio)
                usleep(UInt32(round / 2 % 5) * 100_000)
            }
            let status = daemon.terminate()
            XCTAssertEqual(status, 0, "round \(round): exit status \(status.map(String.init) ?? "none (still running)"); "
                           + "log: \(daemon.log.suffix(4000))")
            sync?.waitForExit()
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
