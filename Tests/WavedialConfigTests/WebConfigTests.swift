import CurlSupport
import WavedialConfig
import WavedialCore
import XCTest

/// `[web]`: off by default on loopback; a bad address, port, network or a page open to the network
/// without a password is a configuration error naming the key.
final class WebConfigTests: XCTestCase {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try Configuration.parse(text, source: "test.toml")
            return []
        } catch {
            return error.problems.map { "\($0.key): \($0.message)" }
        }
    }

    func testOffOnLoopbackByDefaultAllowingTheHomeNetworks() throws {
        let web = try Configuration.parse("").web
        XCTAssertFalse(web.isEnabled)
        XCTAssertEqual(web.bind, "127.0.0.1")
        XCTAssertEqual(web.port, 8080)
        XCTAssertEqual(web.password, "")
        XCTAssertEqual(web.allow.map(\.description),
                       ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10"])
    }

    func testReadsEveryKey() throws {
        let web = try Configuration.parse("""
            [web]
            enabled = true
            bind = "::"
            port = 80
            password = "sesame"
            allow = ["192.168.1.0/24", "::1"]
            """).web
        XCTAssertTrue(web.isEnabled)
        XCTAssertEqual(web.bind, "::")
        XCTAssertEqual(web.port, 80)
        XCTAssertEqual(web.password, "sesame")
        XCTAssertEqual(web.allow.map(\.description), ["192.168.1.0/24", "::1/128"])
    }

    func testTheNetworkNeedsAPassword() throws {
        let found = problems("[web]\nenabled = true\nbind = \"0.0.0.0\"\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.hasPrefix("web.password: must be set when bind is \"0.0.0.0\"") == true, "\(found)")
        XCTAssertEqual(problems("[web]\nenabled = true\nbind = \"::1\"\n"), [], "loopback needs none")
        XCTAssertEqual(problems("[web]\nenabled = true\nbind = \"192.168.1.2\"\npassword = \"x\"\n"), [])
    }

    func testBadValuesAreErrors() {
        XCTAssertEqual(problems("[web]\nbind = \"radio.local\"\n").first?.hasPrefix("web.bind: must be a numeric"), true)
        XCTAssertEqual(problems("[web]\nport = 0\n").first?.hasPrefix("web.port"), true)
        XCTAssertEqual(problems("[web]\nport = 70000\n").first?.hasPrefix("web.port"), true)
        XCTAssertEqual(problems("[web]\nallow = [\"10.0.0.0/33\"]\n").first?.hasPrefix("web.allow: must hold addresses or ranges"), true)
        XCTAssertEqual(problems("[web]\npassword = \"a\\nb\"\n").first?.hasPrefix("web.password"), true)
        XCTAssertEqual(problems("[web]\nlisten = 1\n").count, 1, "unknown keys are errors")
    }
}
