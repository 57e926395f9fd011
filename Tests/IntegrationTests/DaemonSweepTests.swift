import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// Hearing the dial while it turns, against the real daemon headless: three loopback Icecast stations with
/// tones of their own, the knob turned a detent at a time with `wavedial sim turn`, ALSA captured to a file.
final class DaemonSweepTests: XCTestCase {
    private struct ToneStation {
        let uuid: String
        let name: String
        let tone: Int
        let icecast: IcecastServer
    }

    private var stations: [ToneStation] = []
    private var radio: RadioUnderTest?

    override func tearDown() {
        radio?.stop()
        stations.forEach { $0.icecast.stop() }
    }

    /// Stations at 88.1, 88.5 and 88.9 MHz sending 440, 660 and 990 Hz; the knob rests after `snapDelay` ms.
    private func startRadio(snapDelay: Int, dial: [String] = []) throws -> RadioUnderTest {
        let plan = [("Sweep One 88.1", 440), ("Sweep Two 88.5", 660), ("Sweep Three 88.9", 990)]
        for (index, (name, tone)) in plan.enumerated() {
            let icecast = try IcecastServer(source: try TestMedia.tone(frequency: tone, seconds: 30))
            stations.append(ToneStation(uuid: "00000000-0000-4000-8000-00000000005\(index)", name: name, tone: tone, icecast: icecast))
        }
        let radio = try RadioUnderTest(stations: stations.map { .init(uuid: $0.uuid, name: $0.name, url: $0.icecast.url) }) { config in
            config.snapDelayMilliseconds = snapDelay
            config.dial = dial
            config.audio = ["start_timeout_seconds = 5"]
        }
        self.radio = radio
        try radio.startDaemon()
        return radio
    }

    private func turn(_ radio: RadioUnderTest, _ detents: Int) {
        XCTAssertEqual(try radio.cli.run("sim", "turn", "\(detents)").status, 0)
    }

    /// Waits until `uuid` is seen playing (once is enough: the unpaced capture makes the player alternate
    /// between playing and buffering).
    private func waitUntilPlaying(_ radio: RadioUnderTest, _ uuid: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        // Into the null PCM the player alternates between playing and buffering: follow every status as
        // well as polling, so a short "playing" is not missed between two polls.
        let follower = try? StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
        defer { follower?.stop() }
        func isPlaying(_ status: [String: Any]) -> Bool {
            (status["station"] as? [String: Any])?["stationuuid"] as? String == uuid && status["state"] as? String == "playing"
        }
        radio.waitFor(what, file: file, line: line) {
            isPlaying(radio.status()) || (follower?.statuses.contains(where: isPlaying) ?? false)
        }
    }

    private func clicks(_ radio: RadioUnderTest) -> [String] {
        radio.catalog.requests().map(\.path).filter { $0.hasPrefix("/json/url/") }
    }

    /// The tone heard in each tenth of a second of `samples` (nil: none clearly), runs of one tone collapsed and
    /// runs shorter than two windows left out.
    private func tonesInOrder(_ samples: [Int16]) -> [Int] {
        let window = 4_410 * 2
        var labels: [Int?] = []
        var start = 0
        while start + window <= samples.count {
            let slice = Array(samples[start..<start + window])
            let powers = stations.map { PCMAnalysis.power(slice, channels: 2, sampleRate: 44_100, frequency: Double($0.tone)) }
            let loudest = powers.indices.max { powers[$0] < powers[$1] }!
            let others = powers.enumerated().filter { $0.offset != loudest }.map(\.element).max() ?? 0
            // A tone at a quarter of its level or more (the test tones peak at 1/8 of full scale), well above the others.
            labels.append(powers[loudest] > 200_000 && powers[loudest] > others * 10 ? stations[loudest].tone : nil)
            start += window
        }
        var runs: [(tone: Int?, length: Int)] = []
        for label in labels {
            if let last = runs.last, last.tone == label { runs[runs.count - 1].length += 1 } else { runs.append((label, 1)) }
        }
        var order: [Int] = []
        for run in runs where run.length >= 2 {
            if let tone = run.tone, order.last != tone { order.append(tone) }
        }
        return order
    }

    func testSweepingAcrossTheBandPlaysEachStationInTurnAndOnlyTheOneRestedOnCounts() throws {
        let radio = try startRadio(snapDelay: 2_000)
        // From 87.5 MHz up a detent at a time (slowly: no acceleration) to 88.9, where the knob rests.
        for _ in 0..<14 {
            turn(radio, 1)
            usleep(600_000)
        }
        XCTAssertEqual(radio.status()["state"] as? String, "tuning", "still turning: no rest yet")
        let last = try XCTUnwrap(stations.last)
        waitUntilPlaying(radio, last.uuid, "the station rested on plays")
        let rested = radio.capturedFrames
        radio.waitFor("a second of the station rested on") { radio.capturedFrames > rested + 44_100 }
        XCTAssertEqual(tonesInOrder(radio.captured), stations.map(\.tone), "each station heard as the needle crossed it, in order")

        let click = "/json/url/\(last.uuid)"
        radio.waitFor("the click of the station rested on") { clicks(radio).contains(click) }
        XCTAssertEqual(clicks(radio), [click], "stations only swept past are not reported")
        let history = try WavedialDatabase.open(path: radio.databasePath).playHistory().map(\.stationuuid)
        XCTAssertEqual(history, [last.uuid], "nor recorded in the history")
    }

    func testWithoutTheSweepTheStationUnderTheNeedleConnectsBeforeTheRestAndPlaysFromThatConnection() throws {
        let radio = try startRadio(snapDelay: 3_000, dial: ["sweep = false"])
        let first = try XCTUnwrap(stations.first)
        turn(radio, 5)  // 88.0: one channel below the first station
        radio.waitFor("connected while the knob still turns", timeout: 2.5) { ((try? first.icecast.listenerIDs()) ?? []).count == 1 }
        XCTAssertEqual(radio.status()["state"] as? String, "tuning")
        let connection = try first.icecast.listenerIDs()
        XCTAssertEqual(clicks(radio), [], "not played yet")
        XCTAssertEqual(tonesInOrder(radio.captured), [], "silent until the rest (no sweep)")

        waitUntilPlaying(radio, first.uuid, "the station plays after the rest")
        XCTAssertEqual(try first.icecast.listenerIDs(), connection, "the same connection plays")
        let rested = radio.capturedFrames
        radio.waitFor("a second of it") { radio.capturedFrames > rested + 44_100 }
        XCTAssertEqual(tonesInOrder(radio.captured), [first.tone])
        radio.waitFor("its click") { clicks(radio) == ["/json/url/\(first.uuid)"] }
    }
}
