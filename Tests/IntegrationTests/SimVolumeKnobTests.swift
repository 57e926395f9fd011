import Foundation
import WavedialTestSupport
import XCTest

/// `wavedial sim` against the daemon run headless: negative detents without `--`, wherever the other
/// options stand; junk still refused; the volume knob turned and its push pressed.
final class SimVolumeKnobTests: XCTestCase {
    private var radio: RadioUnderTest!

    private let high = "00000000-0000-4000-8000-0000000000a1"
    private let low = "00000000-0000-4000-8000-0000000000a2"

    override func setUpWithError() throws {
        let dead = "http://127.0.0.1:\(freeLoopbackPort())/stream"
        radio = try RadioUnderTest(stations: [.init(uuid: high, name: "High 94.1", url: dead),
                                              .init(uuid: low, name: "Low 88.1", url: dead)]) { config in
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

    private func station() -> String? { (radio.status()["station"] as? [String: Any])?["stationuuid"] as? String }

    /// Waits (up to 10 s) until the knob has rested on `uuid`'s station.
    private func waitForStation(_ uuid: String, _ what: String) {
        XCTAssertTrue(eventually(timeout: 10, pollingEvery: 0.05) { station() == uuid }, "\(what): \(station() ?? "none")")
    }

    func testNegativeDetentsNeedNoDoubleDashWhereverTheOptionsAre() throws {
        let config = radio.configPath
        // From 94.1, 60 detents down (100 kHz each) rest on 88.1; the wrong way or no turn stays at 94.1.
        for arguments in [["sim", "turn", "-60", "--config", config], ["--config", config, "sim", "turn", "-60"],
                          ["sim", "turn", "--config", config, "-60"], ["sim", "turn", "-60", "--config=\(config)"],
                          ["sim", "turn", "-60"], ["sim", "turn", "--", "-60"]] {
            radio.tune(high)
            let result = try radio.cli.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            waitForStation(low, "\(arguments) turned down to 88.1")
        }
        radio.tune(high)
        for junk in [["sim", "turn", "-x"], ["sim", "turn", "1x"], ["sim", "turn", "-1", "-2"], ["sim", "turn", "0"],
                     ["sim", "turn", "-1", "--bogus"], ["sim", "turn", "-1.5"], ["sim", "volume-turn", "--", "-x"]] {
            let result = try radio.cli.run(junk)
            XCTAssertEqual(result.status, 64, "\(junk): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(junk) says why")
        }
        XCTAssertEqual(try needle(), 94.1, accuracy: 0.001, "junk turned nothing")
        XCTAssertEqual(station(), high)
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
