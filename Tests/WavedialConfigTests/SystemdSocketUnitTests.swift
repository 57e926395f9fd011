import Foundation
import WavedialConfig
import WavedialTestSupport
import XCTest

/// The socket unit made from `[mpd]`: it listens where the config says and admits only `allow`, and
/// systemd accepts it beside the shipped `wavediald.service`.
final class SystemdSocketUnitTests: XCTestCase {
    private func mpd(_ lines: String) throws -> ListenerSettings {
        try Configuration.parse("[mpd]\nenabled = true\n" + lines).mpd
    }

    func testTheUnitListensWhereTheConfigSaysAndAllowsOnlyItsRanges() throws {
        let text = SystemdSocketUnit.text(name: "mpd", settings: try mpd("allow = [\"192.168.1.0/24\", \"fd00::/8\"]"),
                                          configPath: "/etc/wavedial/config.toml")
        XCTAssertTrue(text.contains("\nListenStream=127.0.0.1:6600\n"), text)
        XCTAssertTrue(text.contains("\nFileDescriptorName=mpd\nService=wavediald.service\n"), text)
        XCTAssertTrue(text.contains("\nIPAddressDeny=any\nIPAddressAllow=192.168.1.0/24 fd00::/8\n"), text)
        XCTAssertFalse(text.contains("BindIPv6Only"))
        let everywhere = SystemdSocketUnit.text(name: "mpd", settings: try mpd("bind = \"::\"\nport = 6601\npassword = \"x\""),
                                                configPath: "/etc/wavedial/config.toml")
        XCTAssertTrue(everywhere.contains("\nListenStream=[::]:6601\nFileDescriptorName=mpd\nService=wavediald.service\nBindIPv6Only=both\n"), everywhere)
        XCTAssertTrue(everywhere.contains("IPAddressAllow=127.0.0.0/8 ::1/128 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7 fe80::/10\n"))
    }

    func testSystemdVerifiesTheUnitBesideTheService() throws {
        let analyze = "/usr/bin/systemd-analyze"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed (scripts/packages/test-deploy.txt)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = SystemdSocketUnit.text(name: "mpd", settings: try mpd("bind = \"0.0.0.0\"\npassword = \"x\""), configPath: "/etc/wavedial/config.toml")
        try text.write(toFile: directory.path("wavediald-mpd.socket"), atomically: true, encoding: .utf8)
        // The shipped service, its binary swapped for one that exists here.
        let service = try String(contentsOf: ProjectPaths.root.appendingPathComponent("deploy/wavediald.service"), encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/bin/wavediald", with: "ExecStart=/bin/true")
        try service.write(toFile: directory.path("wavediald.service"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["verify", "--man=no", directory.path("wavediald-mpd.socket")]
        process.environment = ["SYSTEMD_UNIT_PATH": directory.url.path + ":", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, said)
        XCTAssertFalse(said.contains("wavediald-mpd.socket:"), "no complaint about the socket unit: \(said)")
    }
}
