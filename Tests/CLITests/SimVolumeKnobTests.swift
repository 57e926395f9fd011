import Foundation
import WavedialTestSupport
import XCTest

/// `wavedial sim` against the daemon run headless: negative detents without `--`, wherever the other
/// options stand; junk still refused; the volume knob turned and its push pressed.
final class SimVolumeKnobTests: XCTestCase {
    private var radio: RadioUnderTest!

    override func setUpWithError() throws {
        radio = try RadioUnderTest(stations: [.init(uuid: "00000000-0000-4000-8000-0000000000a1", name: "Only 94.1",
                                                    url: "http://127.0.0.1:\(freeLoopbackPort())/stream")]) { config in
            config.extra += "\n[hardware.volume_encoder]\nstep_percent = 5"
        }
        try radio.startDaemon()
    }

    override func tearDown() {
        radio?.stop()
    }

    private func status() throws -> [String: Any] {
        try XCTUnwrap(try radio.cli.run("status", "--json").json() as? [String: Any])
    }

    private func needle() throws -> Double { try XCTUnwrap(try status()["needle_mhz"] as? Double) }

    func testNegativeDetentsNeedNoDoubleDashWhereverTheOptionsAre() throws {
        let config = radio.configPath
        let start = try needle()
        for arguments in [["sim", "turn", "-1", "--config", config], ["--config", config, "sim", "turn", "-1"],
                          ["sim", "turn", "--config", config, "-1"], ["sim", "turn", "-1", "--config=\(config)"],
                          ["sim", "turn", "-1"], ["sim", "turn", "--", "-1"]] {
            let result = try radio.cli.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try needle(), start - 0.6, accuracy: 0.001, "six detents down, 100 kHz each")
        for junk in [["sim", "turn", "-x"], ["sim", "turn", "1x"], ["sim", "turn", "-1", "-2"], ["sim", "turn", "0"],
                     ["sim", "turn", "-1", "--bogus"], ["sim", "turn", "-1.5"], ["sim", "volume-turn", "--", "-x"]] {
            let result = try radio.cli.run(junk)
            XCTAssertEqual(result.status, 64, "\(junk): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(junk) says why")
        }
        XCTAssertEqual(try needle(), start - 0.6, accuracy: 0.001, "junk turned nothing")
        // Same class: the location's negative degrees followed by an option.
        XCTAssertEqual(try radio.cli.run("location", "set", "-33.9", "18.4", "--config", config).status, 0)
    }

    func testTheVolumeKnobTurnsByItsStepAndItsPushMutes() throws {
        let start = try needle()
        let before = try XCTUnwrap(try status()["volume"] as? Int)
        let down = try radio.cli.run("sim", "volume-turn", "-2", "--config", radio.configPath)
        XCTAssertEqual(down.status, 0, down.stderr)
        XCTAssertEqual(try status()["volume"] as? Int, max(0, before - 10), "two detents of 5")
        XCTAssertEqual(try radio.cli.run("sim", "volume-turn", "1").status, 0)
        XCTAssertEqual(try status()["volume"] as? Int, max(0, before - 10) + 5)
        XCTAssertEqual(try needle(), start, "the needle stays")
        XCTAssertEqual(try radio.cli.run("sim", "press", "volume_push").status, 0)
        XCTAssertEqual(try status()["muted"] as? Bool, true)
        XCTAssertEqual(try radio.cli.run("sim", "press", "volume_push").status, 0)
        XCTAssertEqual(try status()["muted"] as? Bool, false)
    }
}
