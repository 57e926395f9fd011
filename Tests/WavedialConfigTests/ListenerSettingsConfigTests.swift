import WavedialConfig
import XCTest

/// `[mpd]` (and `[web]`, the same keys): off by default, loopback, the household's ranges allowed, and no
/// server beyond loopback without a password.
final class ListenerSettingsConfigTests: XCTestCase {
    func testTheDefaultsAreOffOnLoopbackWithTheHouseholdsRanges() throws {
        let mpd = try Configuration.parse("").mpd
        XCTAssertFalse(mpd.isEnabled)
        XCTAssertEqual(mpd.bind, "127.0.0.1")
        XCTAssertEqual(mpd.port, 6600)
        XCTAssertEqual(mpd.password, "")
        XCTAssertEqual(mpd.allow.map(\.description),
                       ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10"])
    }

    func testAServerBeyondLoopbackNeedsAPassword() throws {
        for bind in ["0.0.0.0", "::", "192.168.1.20"] {
            XCTAssertThrowsError(try Configuration.parse("[mpd]\nenabled = true\nbind = \"\(bind)\"", source: "test.toml")) { error in
                XCTAssertTrue("\(error)".contains("'mpd.password' must be set when bind is \"\(bind)\""), "\(error)")
            }
            let configured = try Configuration.parse("[mpd]\nenabled = true\nbind = \"\(bind)\"\npassword = \"s3cret\"").mpd
            XCTAssertEqual(configured.password, "s3cret")
            XCTAssertFalse(configured.isLoopbackOnly)
        }
        XCTAssertTrue(try Configuration.parse("[mpd]\nenabled = true\nbind = \"::1\"").mpd.isLoopbackOnly)
        // Off, it listens nowhere: no password needed.
        XCTAssertNoThrow(try Configuration.parse("[mpd]\nbind = \"0.0.0.0\""))
    }

    func testBadValuesAreReportedByKey() {
        let bad = ["bind = \"localhost\"": "mpd.bind", "port = 0": "mpd.port", "port = 70000": "mpd.port",
                   "allow = [\"10.0.0.0/33\"]": "mpd.allow", "allow = []": "mpd.allow", "password = \"tab\\there\"": "mpd.password",
                   "password = \"\(String(repeating: "x", count: 300))\"": "mpd.password"]
        for (line, key) in bad {
            XCTAssertThrowsError(try Configuration.parse("[mpd]\n\(line)", source: "test.toml")) { error in
                XCTAssertTrue("\(error)".contains("'\(key)'"), "\(line): \(error)")
            }
        }
    }
}
