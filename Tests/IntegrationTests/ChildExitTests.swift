import Foundation
import WavedialTestSupport
import XCTest

/// `Process.waitForExit`, which every test's child processes are waited for with.
final class ChildExitTests: XCTestCase {
    private func start(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        return process
    }

    func testExitCodesAndSignals() throws {
        XCTAssertEqual(try start("exit 3").waitForExit(timeout: 30), .exited(3))
        XCTAssertEqual(try start("exit 0").waitForExit(timeout: 30), .exited(0))
        let sleeper = try start("exec sleep 30")
        kill(sleeper.processIdentifier, SIGKILL)
        XCTAssertEqual(sleeper.waitForExit(timeout: 30), .signaled(SIGKILL))
        XCTAssertEqual(ChildExit.signaled(SIGKILL).status, SIGKILL)
    }

    func testATimeoutReturnsNilAndLeavesTheProcessAlone() throws {
        let sleeper = try start("exec sleep 30")
        XCTAssertNil(sleeper.waitForExit(timeout: 0.05))
        XCTAssertTrue(sleeper.isRunning)
        sleeper.terminate()
        XCTAssertEqual(sleeper.waitForExit(timeout: 30), .signaled(SIGTERM))
    }
}
