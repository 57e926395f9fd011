import Foundation
import Hardware
import WavedialTestSupport
import XCTest

/// `wavedial gpio monitor` as a person runs it over SSH, against gpio-sim lines (in the gpio-vm guest).
final class GPIOMonitorCommandGPIOSimTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    /// A running `wavedial gpio monitor` with its output lines.
    private final class Monitor {
        let process = Process()
        private let condition = NSCondition()
        private var out = "", err = ""

        init(_ arguments: [String]) throws {
            process.executableURL = ProjectPaths.product("wavedial")
            process.arguments = ["gpio", "monitor"] + arguments
            for (pipe, isError) in [(Pipe(), false), (Pipe(), true)] {
                if isError { process.standardError = pipe } else { process.standardOutput = pipe }
                pipe.fileHandleForReading.readabilityHandler = { [condition] handle in
                    let text = String(decoding: handle.availableData, as: UTF8.self)
                    condition.lock()
                    if isError { self.err += text } else { self.out += text }
                    condition.broadcast()
                    condition.unlock()
                }
            }
            try process.run()
        }

        /// Waits up to 20 s until `done(stdout lines, stderr)` holds; returns the stdout lines.
        @discardableResult
        func wait(until done: ([String], String) -> Bool) -> [String] {
            let limit = Date(timeIntervalSinceNow: 20)
            condition.lock()
            defer { condition.unlock() }
            while !done(lines, err) && condition.wait(until: limit) {}
            return lines
        }

        /// Waits up to 20 s for the process to end (then kills it); returns its exit status, nil if it had to be killed.
        func exitStatus() -> Int32? {
            guard case .exited(let code) = process.waitForExit(timeout: 20) else {
                kill(process.processIdentifier, SIGKILL)
                return nil
            }
            return code
        }

        var lines: [String] { out.split(separator: "\n").map(String.init) }
        var standardError: String { condition.lock(); defer { condition.unlock() }; return err }
    }

    private func arguments(_ sim: GPIOSimChip) -> [String] {
        ["--chip", sim.name, "--encoder-a", "0", "--encoder-b", "1", "--encoder-push", "2",
         "--buttons", "play=3,pause=4,back=5,forward=6,favorite=7", "--no-acceleration"]
    }

    func testJSONLinesNameEveryDetentAndButtonActionAndRawAddsEveryEdge() throws {
        let sim = try makeSimChip(lines: 8)
        let monitor = try Monitor(arguments(sim) + ["--json", "--raw"])
        monitor.wait { _, err in err.contains("watching") }
        var knob = EncoderSignalGenerator(stepsPerDetent: .four, bounce: .none, seed: 1, at: 0)
        var favorite = ButtonSignalGenerator(line: 2, bounce: .none, seed: 1)
        let edges = [GPIOEdge].merged([knob.turn(2, every: 20 * ms) + knob.turn(-1, every: 20 * ms),
                                       favorite.press(at: 200 * ms, holdingFor: 100 * ms)])
        try sim.play(edges, offsets: [0, 1, 7], activeLow: [false, false, true], minimumLineGap: 3_000_000)
        let lines = monitor.wait { lines, _ in
            lines.contains(#"{"type":"detent","delta":-1}"#)
                && lines.contains(#"{"type":"button","name":"favorite","action":"click"}"#)
                && lines.filter { $0.hasPrefix(#"{"type":"edge""#) }.count >= edges.count
        }
        monitor.process.interrupt()
        XCTAssertEqual(monitor.exitStatus(), 0)
        XCTAssertEqual(lines.filter { !$0.hasPrefix(#"{"type":"edge""#) }, [
            #"{"type":"detent","delta":1}"#, #"{"type":"detent","delta":1}"#, #"{"type":"detent","delta":-1}"#,
            #"{"type":"button","name":"favorite","action":"press"}"#,
            #"{"type":"button","name":"favorite","action":"release"}"#,
            #"{"type":"button","name":"favorite","action":"click"}"#,
        ])
        let rawEdges = lines.filter { $0.hasPrefix(#"{"type":"edge""#) }
        XCTAssertEqual(rawEdges.count, edges.count)
        XCTAssertTrue(rawEdges[0].hasPrefix(#"{"type":"edge","line":0,"role":"encoder.a","edge":"falling","timestamp":"#),
                      rawEdges[0])
    }

    func testSecondMonitorSaysTheLinesAreBusyInOneLine() throws {
        let sim = try makeSimChip(lines: 8)
        let first = try Monitor(arguments(sim))
        first.wait { _, err in err.contains("watching") }
        let second = try Monitor(arguments(sim))
        XCTAssertEqual(second.exitStatus(), 1)
        first.process.interrupt()
        XCTAssertEqual(first.exitStatus(), 0)
        second.wait { _, err in err.hasSuffix("\n") }
        XCTAssertEqual(second.standardError, "wavedial: line 0 (encoder.a) of \(sim.name) is held by another process (\"wavedial\"), is wavediald running?\n")
    }

    func testBadOptionsAndAMissingChipAreOneLineErrorsBeforeAnyLineIsRequested() throws {
        let cases: [([String], Int32, String)] = [
            (["--steps-per-detent", "3"], 64, "wavedial: --steps-per-detent must be 4, 2 or 1, not 3\n"),
            (["--buttons", "play=5,pause"], 64, "wavedial: --buttons wants name=line pairs like play=5,pause=6, not \"pause\"\n"),
            (["--button-bias", "up"], 64, "wavedial: --button-bias must be one of pull-up, pull-down, disabled, as-is\n"),
            (["--chip", "wavedial-no-such-chip"], 1,
             "wavedial: no GPIO chip \"wavedial-no-such-chip\" (by name, /dev path or label; see gpiodetect)\n"),
        ]
        // Bad options are usage errors (64, EX_USAGE); a missing chip is a plain failure.
        for (arguments, status, message) in cases {
            let monitor = try Monitor(arguments)
            XCTAssertEqual(monitor.exitStatus(), status, "\(arguments)")
            monitor.wait { _, err in err.hasSuffix("\n") }
            XCTAssertEqual(monitor.standardError, message)
            XCTAssertEqual(monitor.lines, [])
        }
    }
}
