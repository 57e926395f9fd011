import Foundation
import WavedialTestSupport
import XCTest

/// `wavediald --simulate` in a terminal, as `scripts/run` starts it right after the build's output: the
/// simulator takes the screen before it draws (so the LCD is not drawn over what was there) and gives
/// it back as it was when it quits.
final class TerminalSimulatorTests: XCTestCase {
    func testTheSimulatorClearsTheScreenBeforeDrawingAndRestoresTheTerminalOnQuit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socketPath = "/tmp/wd-\(UUID().uuidString.prefix(8)).sock"
        defer { unlink(socketPath) }
        let configPath = directory.path("config.toml")
        try RadioConfigFile(directory: directory, servers: ["http://127.0.0.1:\(freeLoopbackPort())"], socket: socketPath)
            .write(to: configPath)
        let terminal = try PseudoTerminal(
            executable: ProjectPaths.product("wavediald"),
            arguments: ["--config", configPath, "--simulate"], environment: [:])
        defer { terminal.close() }
        let before = terminal.settings
        XCTAssertNotEqual(before.c_lflag & tcflag_t(ICANON | ECHO), 0, "a fresh terminal is in line mode")

        let help = "q quit"
        XCTAssertTrue(terminal.waitForOutput(containing: help, timeout: 30), terminal.output.debugDescription)
        let output = terminal.output
        let firstFrame = try XCTUnwrap(output.range(of: "┌"), output.debugDescription)
        let drawnBefore = output[..<firstFrame.lowerBound]
        // The alternate screen, cleared, the cursor home: all of it before the first frame is drawn.
        XCTAssertTrue(drawnBefore.contains("\u{1B}[?1049h"), "no alternate screen before the frame: \(drawnBefore.debugDescription)")
        XCTAssertTrue(drawnBefore.contains("\u{1B}[2J"), "no clear before the frame: \(drawnBefore.debugDescription)")
        XCTAssertTrue(drawnBefore.contains("\u{1B}[H"), "the cursor is not sent home before the frame: \(drawnBefore.debugDescription)")
        XCTAssertEqual(terminal.settings.c_lflag & tcflag_t(ICANON | ECHO), 0, "the simulator reads keys raw")

        terminal.type("q")
        XCTAssertEqual(terminal.process.waitForExit(timeout: 20), .exited(0), terminal.output.suffix(2000).debugDescription)
        let (after, settingsAfter) = terminal.ended()
        let lastFrame = try XCTUnwrap(after.range(of: "┘", options: .backwards))
        let left = after[lastFrame.upperBound...]
        // Back to the screen that was there (the build's output), the cursor shown, keys echoed again.
        XCTAssertTrue(left.contains("\u{1B}[?1049l"), "the alternate screen is not left: \(left.debugDescription)")
        XCTAssertTrue(left.contains("\u{1B}[?25h"), "the cursor is not shown again: \(left.debugDescription)")
        XCTAssertEqual(settingsAfter.c_lflag & tcflag_t(ICANON | ECHO), before.c_lflag & tcflag_t(ICANON | ECHO))
    }
}
