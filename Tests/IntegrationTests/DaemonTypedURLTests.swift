import Foundation
import WavedialCore
import WavedialTestSupport
import XCTest

/// `wavedial tune URL` against the real daemon in a network namespace whose link's other end, a private
/// address, is a home Icecast on the LAN (this machine's end of a veth pair), with the address policy as
/// shipped (only loopback is allowed, for the test's catalog). The URL typed plays from the LAN, the same
/// server as a catalog station is refused; link-local and the radio itself are refused for a typed URL
/// too, and what is no http or https URL is a clear error. A typed URL goes into back and forward, and
/// once a favorite it plays again after a restart.
final class DaemonTypedURLTests: XCTestCase {
    private static let catalogUUID = "00000000-0000-4000-8000-0000000000e1"
    private var directory: TemporaryDirectory?
    private var namespace: NetworkNamespace?
    private var icecast: IcecastServer?
    private var radio: RadioUnderTest!
    private var typedURL = ""

    override func setUpWithError() throws {
        guard getuid() == 0 else { throw XCTSkip("network namespaces need root") }
        let directory = try TemporaryDirectory()
        self.directory = directory
        let namespace = try NetworkNamespace(directory: directory, privateAddresses: true)
        self.namespace = namespace
        let icecast = try IcecastServer(source: TestMedia.tone(frequency: 440, seconds: 30), host: namespace.hostAddress)
        self.icecast = icecast
        // The catalog names the LAN server too; the URL typed is another for the same mount (icecast ignores the query).
        typedURL = icecast.url + "?from=home"
        radio = try RadioUnderTest(stations: [.init(uuid: Self.catalogUUID, name: "House FM", url: icecast.url)])
        try radio.startDaemon(launcher: namespace.launcher)
    }

    override func tearDown() {
        radio?.stop()
        icecast?.stop()
        namespace?.remove()
        directory?.remove()
    }

    private var station: [String: Any] { radio.status()["station"] as? [String: Any] ?? [:] }

    private func failedWith(_ words: String) -> Bool {
        let status = radio.status()
        return status["state"] as? String == "failed" && status["error"] as? String == words
    }

    /// `wavedial tune VALUE`, which must succeed.
    private func tune(_ value: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = try? radio.cli.run("tune", value)
        XCTAssertEqual(result?.status, 0, result?.stderr ?? "tune did not run", file: file, line: line)
    }

    /// Waits until the typed URL is the station and plays, and 2 s of the test tone more reached ALSA.
    private func assertTheTypedURLPlays(file: StaticString = #filePath, line: UInt = #line) {
        var seen = false  // once is enough: a status polled again may catch a moment of buffering
        radio.waitFor("the typed URL plays", file: file, line: line) {
            let status = radio.status()
            let uuid = (status["station"] as? [String: Any])?["stationuuid"] as? String
            seen = seen || (uuid == FavoritesFile.syntheticUUID(for: typedURL) && status["state"] as? String == "playing")
            return seen
        }
        radio.assertSoundAgain(after: radio.capturedFrames, file: file, line: line)
    }

    func testATypedURLOnTheLANPlaysWhileTheSameServerAsACatalogStationIsRefused() throws {
        let icecast = try XCTUnwrap(icecast)
        radio.tune(Self.catalogUUID)
        radio.waitFor("the catalog station refused") { failedWith("Address not allowed") }
        // Its very URL typed is that catalog station, under the catalog's policy.
        tune(icecast.url)
        XCTAssertEqual(station["stationuuid"] as? String, Self.catalogUUID)
        radio.waitFor("the catalog station refused again") { failedWith("Address not allowed") }
        XCTAssertEqual(radio.capturedFrames, 0, "no sound from the catalog station")

        tune(typedURL)
        assertTheTypedURLPlays()
        XCTAssertEqual(station["name"] as? String, "\(icecast.host):\(icecast.port)/live.mp3")
        XCTAssertNil(station["frequency_mhz"] as? Double, "not on the band")
        XCTAssertNil(radio.error)
        XCTAssertTrue(radio.daemon?.log.contains("address \(icecast.host) (private network) not allowed for a catalog station") ?? false,
                      radio.daemon?.log ?? "")
    }

    func testLinkLocalAndTheRadioItselfAreRefusedAndWhatIsNoHTTPURLIsAClearError() throws {
        let namespace = try XCTUnwrap(namespace)
        tune("http://169.254.169.254/latest/meta-data/")
        radio.waitFor("link-local refused") { failedWith("Address not allowed") }
        radio.waitFor("the reason in the log") {
            radio.daemon?.log.contains("address 169.254.169.254 (link-local) not allowed for a URL you typed") == true
        }
        let ownURL = "http://\(namespace.insideAddress):8000/"
        tune(ownURL)
        radio.waitFor("the radio's own address refused") { failedWith("Address not allowed") }
        radio.waitFor("the reason in the log") {
            radio.daemon?.log.contains("address \(namespace.insideAddress) (this radio's own address) not allowed for a URL you typed") == true
        }

        let refusals = [
            ("ftp://example.com/live", "only http and https streams can be tuned, not ftp"),
            ("http://", "the URL names no host"),
            ("http://exa mple.com/", "the URL holds spaces, control or non-ASCII characters (percent-encode them)"),
            ("http://example.com/" + String(repeating: "a", count: 8192), "the URL is longer than 8192 bytes"),
        ]
        for (value, reason) in refusals {
            let result = try radio.cli.run("tune", value)
            XCTAssertEqual(result.status, 1, value)
            XCTAssertEqual(result.stderrLines, ["wavedial: \(reason)"], value)
        }
        XCTAssertEqual(station["stationuuid"] as? String, FavoritesFile.syntheticUUID(for: ownURL), "still the station tuned before")
        radio.assertAlive()
    }

    func testATypedURLGoesBackAndForward() throws {
        tune(typedURL)
        assertTheTypedURLPlays()
        radio.tune(Self.catalogUUID)
        radio.waitFor("the catalog station refused") { failedWith("Address not allowed") }
        XCTAssertEqual(try radio.cli.run("back").status, 0)
        assertTheTypedURLPlays()
        XCTAssertEqual(try radio.cli.run("forward").status, 0)
        XCTAssertEqual(station["stationuuid"] as? String, Self.catalogUUID)
        radio.waitFor("the catalog station refused again") { failedWith("Address not allowed") }
    }

    /// The favorite button on a typed URL makes it a favorite the user typed: listed, and after a restart
    /// resumed under the user-typed policy (so it reaches the LAN again).
    func testAFavoriteTypedURLPlaysAgainAfterARestart() throws {
        let namespace = try XCTUnwrap(namespace)
        let uuid = FavoritesFile.syntheticUUID(for: typedURL)
        tune(typedURL)
        assertTheTypedURLPlays()
        XCTAssertEqual(try radio.cli.run("sim", "press", "favorite").status, 0)
        XCTAssertEqual(radio.status()["favorite"] as? Bool, true)
        let favorites = try XCTUnwrap(radio.cli.run("fav", "list", "--json").json() as? [[String: Any]])
        XCTAssertEqual(favorites.map { $0["stationuuid"] as? String }, [uuid])
        XCTAssertEqual(favorites.first?["url"] as? String, typedURL)
        XCTAssertEqual(try WavedialDatabase.open(path: radio.databasePath).typedFavoriteIDs(), [uuid])

        XCTAssertEqual(radio.daemon?.terminate(), 0)
        try radio.startDaemon(launcher: namespace.launcher)
        assertTheTypedURLPlays()
        XCTAssertEqual(radio.status()["favorite"] as? Bool, true)
    }

    /// A typed URL that is no favorite is resumed after a restart too.
    func testATypedURLIsResumedAfterARestart() throws {
        let namespace = try XCTUnwrap(namespace)
        tune(typedURL)
        assertTheTypedURLPlays()
        XCTAssertEqual(radio.daemon?.terminate(), 0)
        try radio.startDaemon(launcher: namespace.launcher)
        assertTheTypedURLPlays()
        XCTAssertEqual(radio.status()["favorite"] as? Bool, false)
    }
}
