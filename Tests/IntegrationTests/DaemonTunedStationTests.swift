import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// What belongs to the station tuned, against the real daemon headless with loopback stations: the title
/// the last one sent is not shown for the next, and only catalog stations are reported to Radio Browser
/// as clicks (a typed URL or an imported playlist entry never is: their ids are made up here).
final class DaemonTunedStationTests: XCTestCase {
    private static let titled = "00000000-0000-4000-8000-0000000000f1"
    private static let untitled = "00000000-0000-4000-8000-0000000000f2"
    private static let title = "Song of the first station"
    private var directory: TemporaryDirectory!
    private var icy: ICYStationServer?
    private var plain: ScriptedHTTPServer?
    private var radio: RadioUnderTest!
    private var follower: StatusFollower?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let icy = try ICYStationServer(name: "Titled FM", title: Self.title, directory: directory)
        self.icy = icy
        // An MP3 without ICY metadata: a station that sends no title.
        let plain = try ScriptedHTTPServer()
        self.plain = plain
        let tone = try Data(contentsOf: TestMedia.tone())
        plain.route("/plain.mp3", .init(headers: ["Content-Type: audio/mpeg"], body: Array(tone)))
        radio = try RadioUnderTest(stations: [.init(uuid: Self.titled, name: "Titled FM", url: icy.url),
                                              .init(uuid: Self.untitled, name: "Plain FM", url: plain.url("/plain.mp3"))])
        try radio.startDaemon()
    }

    override func tearDown() {
        follower?.stop()
        radio?.stop()
        icy?.stop()
        plain?.stop()
        directory.remove()
    }

    private func uuid(of status: [String: Any]) -> String? {
        (status["station"] as? [String: Any])?["stationuuid"] as? String
    }

    /// Waits until `uuid` is seen playing (once is enough: the loopback stream may run dry for a moment).
    private func waitUntilPlaying(_ uuid: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        var seen = false
        radio.waitFor(what, file: file, line: line) {
            let status = radio.status()
            seen = seen || (self.uuid(of: status) == uuid && status["state"] as? String == "playing")
            return seen
        }
    }

    func testTheTitleOfTheStationTunedAwayFromIsNotShownForTheNext() throws {
        radio.tune(Self.titled)
        radio.waitFor("the first station's title") { radio.status()["title"] as? String == Self.title }
        let follower = try StatusFollower(binary: radio.cli.binary, environment: radio.cli.environment)
        self.follower = follower
        radio.waitFor("the follower's first status") { !follower.statuses.isEmpty }

        let tuned = try radio.cli.run("tune", Self.untitled)
        XCTAssertEqual(tuned.status, 0, tuned.stderr)
        XCTAssertTrue(tuned.stdout.contains("Plain FM"), tuned.stdout)
        XCTAssertFalse(tuned.stdout.contains(Self.title), "the status tune answers with: \(tuned.stdout)")
        waitUntilPlaying(Self.untitled, "the second station plays")
        radio.waitFor("the follower saw it play") {
            follower.statuses.contains { uuid(of: $0) == Self.untitled && $0["state"] as? String == "playing" }
        }
        let second = follower.statuses.filter { uuid(of: $0) == Self.untitled }
        XCTAssertEqual(second.compactMap { $0["title"] as? String }, [], "every status of the second station: \(second)")
    }

    func testOnlyCatalogStationsAreReportedToRadioBrowser() throws {
        let icy = try XCTUnwrap(icy)
        let typed = icy.url + "?typed"
        XCTAssertEqual(try radio.cli.run("tune", typed).status, 0)
        waitUntilPlaying(FavoritesFile.syntheticUUID(for: typed), "the typed URL plays")

        let imported = icy.url + "?imported"
        let playlist = directory.path("favorites.m3u")
        try "#EXTM3U\n#EXTINF:-1,Imported FM\n\(imported)\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        let importing = try radio.cli.run("fav", "import", playlist)
        XCTAssertEqual(importing.status, 0, importing.stderr)
        XCTAssertEqual(try radio.cli.run("tune", FavoritesFile.syntheticUUID(for: imported)).status, 0)
        waitUntilPlaying(FavoritesFile.syntheticUUID(for: imported), "the imported favorite plays")

        // Clicks are sent one after another: once the catalog station's is there, the others would be too.
        radio.tune(Self.untitled)
        let click = "/json/url/\(Self.untitled)"
        radio.waitFor("the catalog station's click") { radio.catalog.requests().contains { $0.path == click } }
        XCTAssertEqual(radio.catalog.requests().map(\.path).filter { $0.hasPrefix("/json/url/") }, [click])
    }
}
