import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// Warm neighbours in the real daemon, headless, against three real Icecast2 servers on the band (90.1,
/// 94.1, 98.1): what reaches each server is read from its own statistics.
final class DaemonWarmNeighboursTests: XCTestCase {
    private static let uuids = ["00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000a2",
                                "00000000-0000-4000-8000-0000000000a3"]
    private var servers: [IcecastServer] = []
    private var radio: RadioUnderTest?

    override func setUpWithError() throws {
        servers = try [660, 440, 880].map { try IcecastServer(source: TestMedia.tone(frequency: $0, seconds: 30)) }
    }

    override func tearDown() {
        radio?.stop()
        servers.forEach { $0.stop() }
    }

    private func start(dial: [String]) throws -> RadioUnderTest {
        let names = ["Left 90.1", "Middle 94.1", "Right 98.1"]
        let radio = try RadioUnderTest(stations: zip(zip(Self.uuids, names), servers).map { .init(uuid: $0.0, name: $0.1, url: $1.url) },
                                       dial: dial)
        self.radio = radio
        try radio.startDaemon()
        return radio
    }

    private func listeners(_ index: Int) -> Int { (try? servers[index].listenerCounts().listeners) ?? -1 }
    private func connections(_ index: Int) -> Int { (try? servers[index].listenerCounts().connections) ?? -1 }

    private func waitUntilPlaying(_ radio: RadioUnderTest, _ index: Int, file: StaticString = #filePath, line: UInt = #line) {
        var seen = false
        radio.waitFor("\(Self.uuids[index]) playing", file: file, line: line) {
            let status = radio.status()
            let uuid = (status["station"] as? [String: Any])?["stationuuid"] as? String
            seen = seen || (uuid == Self.uuids[index] && status["state"] as? String == "playing")
            return seen
        }
    }

    func testBothNeighboursGetAListenerAndTuningToOneMakesNoNewRequest() throws {
        let radio = try start(dial: [])
        radio.tune(Self.uuids[1])
        waitUntilPlaying(radio, 1)
        radio.waitFor("both neighbours connected") { listeners(0) == 1 && listeners(2) == 1 }
        let toRight = connections(2)
        radio.tune(Self.uuids[2])
        waitUntilPlaying(radio, 2)
        XCTAssertEqual(connections(2), toRight, "the warm neighbour played without a new request")
        radio.waitFor("the middle stays warm beside the right") { listeners(1) == 1 }
        radio.waitFor("the left, no longer a neighbour, is let go") { listeners(0) == 0 }
        let clicks = { radio.catalog.requests().map(\.path).filter { $0.hasPrefix("/json/url/") } }
        radio.waitFor("the clicks of the stations played") { clicks().count >= 2 }
        XCTAssertEqual(Set(clicks()), Set([1, 2].map { "/json/url/\(Self.uuids[$0])" }), "warm stations are not reported")
    }

    func testWarmNeighboursZeroConnectsNone() throws {
        let radio = try start(dial: ["warm_neighbours = 0"])
        radio.tune(Self.uuids[1])
        waitUntilPlaying(radio, 1)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(connections(0), 0, "no request to the left neighbour")
        XCTAssertEqual(connections(2), 0, "no request to the right neighbour")
        XCTAssertEqual(listeners(1), 1)
    }
}
